import Dispatch
public import SensorCore
public import SensorRuntime
import Synchronization

/// Polls one source on its own thread at its interval and hands each poll's cycles over.
///
/// Everything that touches the source's files happens on that thread: the first discovery,
/// rediscovery (at least once a minute, when asked, and before a poll when the source's
/// class directory lists other devices: SPEC §20) and the polls. A reader may block in
/// the kernel (a stuck driver, a FIFO in a test tree). Ticks that pass while a poll is
/// still running are skipped, so a slow source never queues up work; with a ``StallWatch``
/// the missed ticks are stood in for (their `stale` checks run), and a call stuck in one
/// file is given up (``SensorReader/isolateBlockedRead(now:)``): the thread stays behind in
/// it, a new poll thread carries on at the next tick, and only that file's sensor faults
/// (SPEC §8). Each hung file holds one thread, and only until its read returns.
final class SourcePoller: Sendable {
    /// What the poll thread hands over: the list a discovery found (with no cycles when it
    /// comes from a discovery), and the cycles of a poll of that list, in order.
    typealias Delivery = @Sendable (_ list: SensorList, _ cycles: [PollCycle]) -> Void

    let reader: any SensorReader
    let interval: Duration
    /// The source key of this poller's lists: unique per running source, since consumers
    /// cache per source and two sources may share a kind (two thermal roots).
    let key: String
    private let pacer: PollPacer
    private let deliver: Delivery
    private let stallWatch: StallWatch?
    /// Why the stall watch asked for has no thread, if it has none.
    let watchFailure: SystemError?
    /// Discover and poll once, then stop (``readOnce(_:)``): a thread taking over polls at
    /// once, and no ticks are stood in for.
    private let once: Bool
    private let state: Mutex<State>

    private struct State {
        /// The last discovery's list; a new object only when the sensors changed.
        var list: SensorList
        var lastDiscovery: Timestamp?
        var rediscover = true
        var stopped = false
        /// The tick time of the poll (or discovery) in progress; nil between polls.
        var polling: Timestamp?
        /// The next tick ``tickIfStalled()`` stands in for while that poll hangs.
        var nextStallTick = Timestamp(nanoseconds: 0)
        /// Whether it stood in for any tick of the poll in progress.
        var stallTicked = false
        /// The number of the poll thread that is this source's now. A thread left behind in
        /// a blocked read has an older number: it delivers nothing and ends when it returns.
        var thread = 0
        /// A poll thread that could not be started (no thread to be had): tried again at each
        /// look of the watch, which stands in for its ticks meanwhile.
        var unstarted: Int?
    }

    /// How often the stall watch looks at a poll that runs long. Polls that keep up end
    /// long before it and never wake the watch; a reader gives a call up once it has stayed
    /// in one file through looks a second apart, so 1 to 1.25 s after that file blocked
    /// (SPEC §8: a fault within 2 s).
    static let look: Duration = .milliseconds(250)

    /// How often a source is rediscovered at the least.
    static let discoveryInterval: Duration = .seconds(60)

    /// How often a poll thread looks at its class directory at the most, whatever its
    /// interval: a look lists the directory (318 µs at a thousand zones on tmpfs, under load;
    /// bench/look.sh), so at 100 ms only every tenth poll pays it, and a device that comes
    /// or goes is still seen within 1 s plus one interval (SPEC §20: 2 s at 1 s).
    static let lookInterval: Duration = .seconds(1)

    /// The shortest interval after which a poll thread gives its stack's deep pages back
    /// before it sleeps (``ThreadStack/release()``): a madvise and a few page faults a poll,
    /// too much at 100 ms for what a sysfs poll's shallow stack holds, little at seconds.
    static let releaseStackInterval = Duration.seconds(1).nanoseconds

    /// - Parameters:
    ///   - watchStalls: arm a ``StallWatch`` (on the pacer's clock) around each poll.
    ///   - deliver: called on the poll thread (or the stall watch's) with each discovery's
    ///     new list and each poll's cycles; never while a lock of this poller is held.
    init(
        reader: any SensorReader, interval: Duration, pacer: PollPacer, key: String? = nil,
        watchStalls: Bool = false, once: Bool = false, deliver: @escaping Delivery
    ) {
        self.once = once
        self.reader = reader
        let key = key ?? reader.source
        self.key = key
        self.interval = interval
        self.pacer = pacer
        self.deliver = deliver
        state = Mutex(State(list: SensorList(source: key, sensors: [])))
        var watch: StallWatch?
        var watchFailure: SystemError?
        if watchStalls {
            let ticker = WeakPoller()
            do {
                watch = try StallWatch(alarm: pacer.makeAlarm(), source: key) { ticker.poller?.watchExpired() }
            } catch {
                watchFailure = error
            }
            stallWatch = watch
            self.watchFailure = watchFailure
            ticker.poller = self
        } else {
            stallWatch = nil
            self.watchFailure = nil
        }
    }

    /// Discovers (on the calling thread): the list stays the same object when the sensors
    /// did not change; a new one, and the first, is delivered.
    func discoverNow(at time: Timestamp) { _ = discover(at: time, thread: state.withLock { $0.thread }) }

    /// ``discoverNow(at:)`` for poll thread `number`; false (nothing delivered) when that
    /// thread was left behind meanwhile.
    private func discover(at time: Timestamp, thread number: Int) -> Bool {
        let sensors = reader.discover()
        let leftOut = reader.leftOut
        let found = state.withLock { s -> (SensorList, Bool)? in
            guard s.thread == number else { return nil }
            let first = s.lastDiscovery == nil
            s.lastDiscovery = time
            s.rediscover = false
            let same = s.list.sensors == sensors && s.list.leftOut == leftOut
            if !same { s.list = SensorList(source: key, sensors: sensors, discovered: time, leftOut: leftOut) }
            return (s.list, first || !same)
        }
        guard let (list, announce) = found else { return false }
        if announce { deliver(list, []) }
        return true
    }

    /// Polls on the calling thread, in virtual time (``SourceSupervisor/play()``), as one:
    /// a discovery first when one is due at `first`, then one poll through `last`, its cycles
    /// delivered with the `ticks` (each after the readings up to it, as a poll thread's poll
    /// at that tick would have them). The same cycles as a poll thread's polls.
    func pollNow(from first: Timestamp, through last: Timestamp, ticks: [Timestamp]) {
        let (due, number) = state.withLock { s in
            (s.rediscover || s.lastDiscovery.map { first - $0 >= Self.discoveryInterval } ?? true, s.thread)
        }
        if due { _ = discover(at: first, thread: number) }
        let read = reader.poll(at: last)
        let list = state.withLock { s in
            if read.contains(where: { $0.count != s.list.count }) { s.rediscover = true }
            return s.list
        }
        deliver(list, PollCycle.cycles(of: list, read, ticks: ticks))
    }

    /// The last discovery's list.
    var list: SensorList { state.withLock { $0.list } }

    /// Asks for a rediscovery before the next poll.
    func requestDiscovery() { state.withLock { $0.rediscover = true } }

    /// Starts the poll thread: a discovery and a tick now, then a tick every `interval`.
    ///
    /// - Throws: ``SystemError`` when no thread could be made. With a stall
    ///   watch, the start is tried again at each of its looks, and the watch stands in for
    ///   the source's ticks meanwhile (its sensors go stale); without one, the source is
    ///   not polled: the caller stops it.
    func start() throws(SystemError) {
        if let failure = startThread(0, from: nil) { throw failure }
    }

    /// Poll thread `number`'s loop; a thread that takes over from one left behind starts
    /// at the tick `first`.
    private func loop(thread number: Int, from first: Timestamp?) {
        let step = max(1, interval.nanoseconds)
        var next = first ?? pacer.now
        // When this thread last looked at the class directory, and which slots failed at
        // its last poll (a fault that persists does not make it look again).
        var lastLook = Timestamp(nanoseconds: .min / 2)
        var lastFailing: Set<Int> = []
        if first != nil { pacer.sleep(until: next) }
        while state.withLock({ !$0.stopped && $0.thread == number }) {
            let time = next
            var due = state.withLock { s in
                s.polling = time
                s.nextStallTick = Timestamp(nanoseconds: time.nanoseconds + step)
                s.stallTicked = false
                return s.rediscover || s.lastDiscovery.map { time - $0 >= Self.discoveryInterval } ?? true
            }
            stallWatch?.arm(after: Self.look)
            // A device that appeared or went is discovered before this poll, not at the
            // minute's rediscovery, and a vanished one's files are not read (SPEC §20).
            if !due, time - lastLook >= Self.lookInterval {
                lastLook = time
                due = reader.devicesChanged()
            }
            if due {
                lastLook = time
                if !discover(at: time, thread: number) { return leftBehind() }
            }
            var read = reader.poll(at: time)
            // A read that newly failed may be a device that went meanwhile: then it is no
            // fault, and the list without it is read instead.
            let failing = Set(read.flatMap(\.faults.keys))
            if !failing.isSubset(of: lastFailing), reader.devicesChanged() {
                if !discover(at: time, thread: number) { return leftBehind() }
                read = reader.poll(at: time)
            }
            lastFailing = failing
            let polled = state.withLock { s -> (list: SensorList, stopped: Bool, ticked: Bool)? in
                // Left behind: the watch's and the list's are the new thread's now.
                guard s.thread == number else { return nil }
                s.polling = nil
                stallWatch?.disarm()
                // Readings that do not line up with the list (a reader breaking its
                // contract) are dropped, and the list is read again before the next poll.
                if read.contains(where: { $0.count != s.list.count }) { s.rediscover = true }
                return (s.list, s.stopped, s.stallTicked)
            }
            guard let (list, stopped, ticked) = polled else { return leftBehind() }
            if stopped { break }
            // When stand-in ticks ran meanwhile, this poll's tick is older than theirs.
            deliver(list, PollCycle.cycles(of: list, read, tick: ticked ? nil : time))
            if once { break }
            next = Timestamp(nanoseconds: next.nanoseconds + step)
            // A poll that overran its interval (a slow or stuck driver) skips the ticks it
            // missed instead of bursting to catch up.
            let now = pacer.now
            if now > next {
                let missed = (now.nanoseconds - next.nanoseconds) / step + 1
                next = Timestamp(nanoseconds: next.nanoseconds + missed * step)
            }
            // What the poll's deepest calls touched stays resident through the sleep; a
            // second or more of it is worth a few page faults at the next poll (bench/README.md).
            if step >= Self.releaseStackInterval { ThreadStack.release() }
            pacer.sleep(until: next)
        }
        if state.withLock({ $0.thread == number }) { stallWatch?.stop() }
    }

    /// A thread left behind returns here once its blocked read has: the file answers again,
    /// so the source rediscovers at its next tick and the sensor rejoins.
    private func leftBehind() { requestDiscovery() }

    /// The stall watch's expiry: stands in for missed ticks, then gives up a call stuck in
    /// one file.
    func watchExpired() {
        if !once { tickIfStalled() } else { stallWatch?.arm(after: Self.look) }
        if let (number, from) = state.withLock({ s in s.unstarted.map { ($0, s.nextStallTick) } }) {
            startThread(number, from: from)
        } else {
            isolateIfBlocked()
        }
    }

    /// Gives up the discovery or poll in progress when the reader finds it blocked in one
    /// file, and starts a new poll thread at the next tick not stood in for.
    func isolateIfBlocked() {
        let now = pacer.now
        let takeOver = state.withLock { s -> (Int, Timestamp)? in
            // Under the lock, so the stuck thread cannot return and deliver in between.
            guard s.polling != nil, !s.stopped, reader.isolateBlockedRead(now: now) else { return nil }
            s.thread += 1
            s.polling = nil
            s.rediscover = true
            return (s.thread, once ? now : s.nextStallTick)
        }
        guard let (number, from) = takeOver else { return }
        startThread(number, from: from)
    }

    /// Starts poll thread `number` at the tick `from` (nil: at once, the source's first).
    /// Without a thread, the watch stands in for the source's ticks and tries again at
    /// each of its looks; returns why there is none.
    @discardableResult
    private func startThread(_ number: Int, from: Timestamp?) -> SystemError? {
        do {
            try DetachedThread.start("polling \(key)") { [self] in loop(thread: number, from: from) }
            state.withLock { $0.unstarted = nil }
            return nil
        } catch {
            let tick = from ?? pacer.now
            state.withLock { s in
                s.unstarted = number
                s.polling = tick
                if from == nil {
                    s.nextStallTick = Timestamp(nanoseconds: tick.nanoseconds + max(1, interval.nanoseconds))
                }
            }
            stallWatch?.arm(after: Self.look)
            return error
        }
    }

    /// Discovers and polls `reader` once on a poll thread, as a running source would, with
    /// its stall watch: a call stuck in one file is given up and done again without it, so
    /// the caller gets every other sensor and the stuck one as a fault (`sensors`, SPEC §8).
    /// Blocks the calling thread until the poll is in: the list and the poll's cycles.
    ///
    /// - Throws: ``SystemError`` when the poll thread or its watch could not
    ///   be made (nothing is read then: without the watch, a file that blocks would block
    ///   the caller).
    public static func readOnce(
        _ reader: any SensorReader, clock: some RunClock
    ) throws(SystemError) -> (list: SensorList, cycles: [PollCycle]) {
        let result = Mutex<(list: SensorList, cycles: [PollCycle])?>(nil)
        let done = DispatchSemaphore(value: 0)
        let poller = SourcePoller(
            reader: reader, interval: .seconds(1), pacer: PollPacer(clock: clock, start: clock.now), watchStalls: true,
            once: true
        ) { list, cycles in
            // The first delivery with cycles is the poll's; before it come discoveries.
            guard !cycles.isEmpty else { return }
            result.withLock { $0 = (list, cycles) }
            done.signal()
        }
        do throws(SystemError) {
            if let failure = poller.watchFailure { throw failure }
            try poller.start()
        } catch {
            poller.stop()
            throw error
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Stands in for the ticks a hanging poll has missed: one cycle with nothing read per
    /// missed tick, so the `stale` rules of this source's sensors still run (SPEC §5: stale
    /// fires also when no sample comes at all). Does nothing while polls keep up.
    ///
    /// Called from outside the poll thread (the stall watch, a test); the poll's own cycles,
    /// when it finally returns, come after these and carry no tick.
    func tickIfStalled() {
        let now = pacer.now
        let step = max(1, interval.nanoseconds)
        let (list, ticks, again) = state.withLock { s -> (SensorList, [Timestamp], Duration?) in
            guard s.polling != nil, !s.stopped else { return (s.list, [], nil) }
            var ticks: [Timestamp] = []
            while s.nextStallTick <= now {
                ticks.append(s.nextStallTick)
                s.stallTicked = true
                s.nextStallTick = Timestamp(nanoseconds: s.nextStallTick.nanoseconds + step)
            }
            return (s.list, ticks, .nanoseconds(s.nextStallTick.nanoseconds - now.nanoseconds))
        }
        if let again { stallWatch?.arm(after: min(again, Self.look)) }
        guard !ticks.isEmpty else { return }
        deliver(list, ticks.map { PollCycle(list: list, readings: SensorValues(time: $0, unread: list.count)) })
    }

    /// Stops polling; a poll blocked in the kernel is abandoned, not awaited (whatever it
    /// delivers later is the consumer's to drop).
    func stop() {
        let wasPolling = state.withLock { s -> Bool in
            s.stopped = true
            return s.polling != nil
        }
        pacer.wake()
        // A thread stuck in a read never reaches its own stop of the watch.
        if wasPolling { stallWatch?.stop() }
    }
}

/// The stall watch's way back to its poller without keeping it alive.
private final class WeakPoller: @unchecked Sendable {
    // Set once, before the watch's first expiry can run.
    weak var poller: SourcePoller?
}

extension SensorReader {
    /// Discovers and polls this reader once, isolating a file that blocks, as a running
    /// source does (``SourcePoller/readOnce(_:clock:)``): for one-shot commands (`sensors`).
    ///
    /// - Throws: ``SystemError`` when no thread could be made for it.
    public func readOnce(
        clock: some RunClock
    ) throws(SystemError) -> (list: SensorList, cycles: [PollCycle]) {
        try SourcePoller.readOnce(self, clock: clock)
    }
}
