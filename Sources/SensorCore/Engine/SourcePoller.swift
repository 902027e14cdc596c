import Synchronization

/// Polls one source on its own thread at its interval and streams the cycles.
///
/// A reader may block in the kernel (a stuck hwmon driver, a FIFO in a test tree): that
/// stalls only this poller's thread. Ticks that pass while a poll is still running are
/// skipped, so a slow source never queues up work. Rediscovery runs on the
/// same thread, at least once a minute and when asked. Given a consumer executor, the
/// thread also runs the consumer's work for each cycle before it sleeps again.
final class SourcePoller: Sendable {
    let reader: any SensorReader
    let interval: Duration
    /// The `source` of this poller's cycles: unique per running source, since consumers
    /// cache per source and two sources may share a kind (two thermal roots).
    let key: String
    private let pacer: any PollPacer
    /// Where the consumer of `cycles` runs, if the poll thread should run it itself after
    /// each poll (see ``MainQueueTaskExecutor/donate(_:)``); nil: it runs wherever it runs.
    private let consumerExecutor: MainQueueTaskExecutor?
    private let state = Mutex<State>(State())
    private let continuation: AsyncStream<PollCycle>.Continuation
    /// The cycles this poller produces, in order.
    let cycles: AsyncStream<PollCycle>

    private struct State {
        var sensors: [SensorInfo] = []
        /// Grows when the discovered list changes (`PollCycle.discovery`).
        var discovery: UInt64 = 0
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

    init(
        reader: any SensorReader, interval: Duration, pacer: any PollPacer, key: String? = nil,
        consumerExecutor: MainQueueTaskExecutor? = nil
    ) {
        self.consumerExecutor = consumerExecutor
        self.reader = reader
        self.key = key ?? reader.source
        self.interval = interval
        self.pacer = pacer
        (cycles, continuation) = AsyncStream.makeStream(of: PollCycle.self, bufferingPolicy: .unbounded)
    }

    /// Discovers synchronously (before READY) and returns the sensors found.
    func discoverNow(at time: Timestamp) -> [SensorInfo] {
        let sensors = reader.discover()
        state.withLock {
            if $0.discovery == 0 || $0.sensors != sensors { $0.discovery += 1 }
            $0.sensors = sensors
            $0.lastDiscovery = time
            $0.rediscover = false
        }
        return sensors
    }

    /// The sensors last discovered.
    var sensors: [SensorInfo] { state.withLock { $0.sensors } }

    /// How many sensors were last discovered.
    var sensorCount: Int { state.withLock { $0.sensors.count } }


    /// Asks for a rediscovery before the next poll.
    func requestDiscovery() { state.withLock { $0.rediscover = true } }

    /// Starts the poll thread: a tick now, then one every `interval`.
    func start() {
        let started = PollThread.start { [self] in loop() }
        if !started { continuation.finish() }
    }

    private func loop() {
        let step = max(1, interval.nanoseconds)
        var next = pacer.now
        while !state.withLock({ $0.stopped }) {
            let time = next
            let due = state.withLock { s in
                s.polling = time
                s.nextStallTick = Timestamp(nanoseconds: time.nanoseconds + step)
                s.stallTicked = false
                return s.rediscover || s.lastDiscovery.map { time - $0 >= Self.discoveryInterval } ?? true
            }
            if due { _ = discoverNow(at: time) }
            // The compact form when the reader has one (sysfs), samples otherwise.
            let values = reader.pollValues(at: time)
            let samples = values == nil ? reader.poll(at: time) : []
            let (sensors, discovery, stopped, ticked) = state.withLock { s in
                s.polling = nil
                // Values that do not line up with the sensor list (a reader breaking its
                // contract) are dropped, and the list is read again before the next poll.
                if let values, values.count != s.sensors.count { s.rediscover = true }
                return (s.sensors, s.discovery, s.stopped, s.stallTicked)
            }
            if stopped { break }
            // When stand-in ticks ran meanwhile, this cycle's own tick is older than theirs.
            let cycle = if let values, values.count == sensors.count {
                PollCycle(
                    source: key, time: time, sensors: sensors, values: values, tick: !ticked,
                    discovery: discovery)
            } else {
                PollCycle(
                    source: key, time: time, sensors: sensors, samples: samples, tick: !ticked,
                    discovery: discovery)
            }
            if let consumerExecutor {
                consumerExecutor.donate { continuation.yield(cycle) }
            } else {
                continuation.yield(cycle)
            }
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
    }

    /// Stands in for the ticks a hanging poll has missed: one cycle without samples per
    /// missed tick, so the `stale` rules of this source's sensors still run (SPEC §5: stale
    /// fires also when no sample comes at all). Does nothing while polls keep up.
    ///
    /// Called from outside the poll thread (the daemon's stall watch); the poll's own cycle,
    /// when it finally returns, comes after these and carries no tick.
    func tickIfStalled() {
        let now = pacer.now
        let step = max(1, interval.nanoseconds)
        state.withLock { s in
            guard s.polling != nil, !s.stopped else { return }
            while s.nextStallTick <= now {
                continuation.yield(PollCycle(
                    source: key, time: s.nextStallTick, sensors: s.sensors, samples: [],
                    discovery: s.discovery))
                s.stallTicked = true
                s.nextStallTick = Timestamp(nanoseconds: s.nextStallTick.nanoseconds + step)
            }
        }
    }

    /// Stops producing cycles; a poll blocked in the kernel is abandoned, not awaited.
    func stop() {
        state.withLock { $0.stopped = true }
        pacer.wake()
        continuation.finish()
    }
}
