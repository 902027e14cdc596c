import Synchronization

/// Polls one source on its own thread at its interval and hands each poll's cycles over.
///
/// Everything that touches the source's files happens on that thread: the first discovery,
/// rediscovery (at least once a minute and when asked) and the polls. A reader may block in
/// the kernel (a stuck driver, a FIFO in a test tree): that stalls only this poller. Ticks
/// that pass while a poll is still running are skipped, so a slow source never queues up
/// work; with a ``StallWatch`` the missed ticks are stood in for (their `stale` checks run).
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
    }

    /// How often a source is rediscovered at the least.
    static let discoveryInterval: Duration = .seconds(60)

    /// - Parameters:
    ///   - watchStalls: arm a ``StallWatch`` (on the pacer's clock) around each poll.
    ///   - deliver: called on the poll thread (or the stall watch's) with each discovery's
    ///     new list and each poll's cycles; never while a lock of this poller is held.
    init(
        reader: any SensorReader, interval: Duration, pacer: PollPacer, key: String? = nil,
        watchStalls: Bool = false, deliver: @escaping Delivery
    ) {
        self.reader = reader
        let key = key ?? reader.source
        self.key = key
        self.interval = interval
        self.pacer = pacer
        self.deliver = deliver
        state = Mutex(State(list: SensorList(source: key, sensors: [])))
        if watchStalls {
            let ticker = WeakPoller()
            stallWatch = StallWatch(alarm: pacer.makeAlarm()) { ticker.poller?.tickIfStalled() }
            ticker.poller = self
        } else {
            stallWatch = nil
        }
    }

    /// Discovers (on the calling thread): the list stays the same object when the sensors
    /// did not change; a new one, and the first, is delivered.
    func discoverNow(at time: Timestamp) {
        let sensors = reader.discover()
        let (list, announce) = state.withLock { s -> (SensorList, Bool) in
            let first = s.lastDiscovery == nil
            s.lastDiscovery = time
            s.rediscover = false
            let same = s.list.sensors == sensors
            if !same { s.list = SensorList(source: key, sensors: sensors, discovered: time) }
            return (s.list, first || !same)
        }
        if announce { deliver(list, []) }
    }

    /// Asks for a rediscovery before the next poll.
    func requestDiscovery() { state.withLock { $0.rediscover = true } }

    /// Starts the poll thread: a discovery and a tick now, then a tick every `interval`.
    func start() {
        PollThread.start { [self] in loop() }
    }

    private func loop() {
        let step = max(1, interval.nanoseconds)
        let patience = max(step, StallWatch.patience.nanoseconds)
        var next = pacer.now
        while !state.withLock({ $0.stopped }) {
            let time = next
            let due = state.withLock { s in
                s.polling = time
                s.nextStallTick = Timestamp(nanoseconds: time.nanoseconds + step)
                s.stallTicked = false
                return s.rediscover || s.lastDiscovery.map { time - $0 >= Self.discoveryInterval } ?? true
            }
            stallWatch?.arm(after: .nanoseconds(patience))
            if due { discoverNow(at: time) }
            let read = reader.poll(at: time)
            stallWatch?.disarm()
            let (list, stopped, ticked) = state.withLock { s in
                s.polling = nil
                // Readings that do not line up with the list (a reader breaking its
                // contract) are dropped, and the list is read again before the next poll.
                if read.contains(where: { $0.count != s.list.count }) { s.rediscover = true }
                return (s.list, s.stopped, s.stallTicked)
            }
            if stopped { break }
            // When stand-in ticks ran meanwhile, this poll's tick is older than theirs.
            deliver(list, PollCycle.cycles(of: list, read, tick: ticked ? nil : time))
            next = Timestamp(nanoseconds: next.nanoseconds + step)
            // A poll that overran its interval (a slow or stuck driver) skips the ticks it
            // missed instead of bursting to catch up.
            let now = pacer.now
            if now > next {
                let missed = (now.nanoseconds - next.nanoseconds) / step + 1
                next = Timestamp(nanoseconds: next.nanoseconds + missed * step)
            }
            pacer.sleep(until: next)
        }
        stallWatch?.stop()
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
        if let again { stallWatch?.arm(after: again) }
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
