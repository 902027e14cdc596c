#if canImport(Glibc)
import Glibc
#endif

/// The long-running service behind `sensorwatch run`.
///
/// Each source is polled on its own thread at its interval (see ``SourcePoller``); cycles
/// are committed to ``SensorData`` on the main actor; one ``TrackingLoop`` hands them to the
/// ``RuleEngine``; events go to the sink. The loop also feeds the watchdog, so a stuck
/// loop stops the pings. Time comes from an injected clock.
///
/// The main-actor work a poll causes (the commit, then the loop's turn) normally runs on
/// that poll's own thread, which holds the main queue meanwhile (``MainQueueTaskExecutor``):
/// a poll cycle then wakes one thread, not two.
@MainActor
public final class Daemon<C: Clock> where C.Duration == Duration {
    /// What the daemon needs from outside, injected so tests can replace each part.
    public struct Environment: Sendable {
        /// Where alert events and sensor faults go.
        public var sink: any AlertSink
        /// The service manager (sd_notify) or a no-op.
        public var notifier: any ServiceNotifier
        /// Logs a daemon message (not an alert) at a syslog priority.
        public var log: @Sendable (_ priority: Int, _ message: String) -> Void
        /// Re-reads the configuration on reload.
        public var reload: @Sendable () throws(ConfigErrors) -> Configuration
        /// Alerts that were firing when the daemon last stopped (from the state file).
        public var restored: [PersistedAlert]
        /// Called with every alert that fires whenever that set changes (to keep state).
        public var persist: @Sendable ([PersistedAlert]) -> Void
        /// Wall-clock seconds since the epoch, for the `since` of kept alerts.
        public var wallClock: @Sendable () -> Double
        /// Test hook: the rule loop blocks forever after this long (watchdog tests).
        public var hangAfter: Duration?
        /// Builds the reader of a source (tests inject fakes).
        public var makeReader: @Sendable (SourceConfiguration) -> any SensorReader
        /// Gives freed heap memory back to the kernel (glibc's `malloc_trim`); called after
        /// the rule loop caught up with a backlog, which would otherwise stay resident.
        public var trimMemory: @Sendable () -> Void
        /// The binary's version, shown by the metrics file's `sensorwatch_build_info`.
        public var version: String

        public init(
            sink: any AlertSink, notifier: any ServiceNotifier = NoOpNotifier(),
            log: @escaping @Sendable (Int, String) -> Void = { _, _ in },
            reload: @escaping @Sendable () throws(ConfigErrors) -> Configuration,
            restored: [PersistedAlert] = [],
            persist: @escaping @Sendable ([PersistedAlert]) -> Void = { _ in },
            wallClock: @escaping @Sendable () -> Double = StateStore.wallClock,
            hangAfter: Duration? = nil,
            makeReader: @escaping @Sendable (SourceConfiguration) -> any SensorReader = {
                ReaderFactory.makeReader(for: $0, loop: true)
            },
            trimMemory: @escaping @Sendable () -> Void = {},
            version: String = "unknown"
        ) {
            self.version = version
            self.makeReader = makeReader
            self.trimMemory = trimMemory
            self.sink = sink
            self.notifier = notifier
            self.log = log
            self.reload = reload
            self.restored = restored
            self.persist = persist
            self.wallClock = wallClock
            self.hangAfter = hangAfter
        }
    }

    private let clock: C
    private let env: Environment
    private let start: C.Instant
    private var configuration: Configuration
    private let data = SensorData()
    private var engine: RuleEngine
    private var sources: [RunningSource] = []
    private var loopTask: Task<Void, Never>?
    private var trackingLoop: TrackingLoop?
    private var heartbeatTask: Task<Void, Never>?
    /// Stands in for ticks of hanging polls (real time only).
    private var stallWatch: StallWatch?
    /// Where the consumer and loop tasks resume after a wake-up from another thread; poll
    /// threads run the work of their own cycles through it.
    private let mainQueue = MainQueueTaskExecutor()
    /// Numbers the sources started so far, for their unique cycle keys.
    private var sourcesStarted = 0
    private var faulty: [SensorID: String] = [:]
    /// Derived sensors (SPEC §11), fed from every committed cycle.
    private var derived: DerivedSensors
    /// The discovery each source's sensor list was last taught to `derived` at.
    private var derivedLearned: [String: UInt64] = [:]
    /// What the metrics file needs beyond `data` and `engine`; its writer, if configured.
    private var metrics: MetricsRecorder
    private var metricsWriter: MetricsTextfileWriter<C>?
    /// The firing alerts as the state file keeps them.
    private var kept: [AlertKey: PersistedAlert] = [:]
    /// Writes `kept` off the rule loop, latest first (sorting and encoding happen there).
    private let stateWriter: LatestValueWriter<[AlertKey: PersistedAlert]>
    private var lastStatus = ""
    private var lastStatusCounts = (sensors: -1, faulty: -1, firing: -1)
    private var lastPing: C.Instant
    private var lastTrim: C.Instant
    private var stopping = false
    private var reloading = false
    private var reloadAgain = false
    private var finished: CheckedContinuation<Void, Never>?
    private var hasFinished = false

    /// Sets the daemon up; nothing runs until ``run()``.
    public init(configuration: Configuration, environment: Environment, clock: C) {
        self.configuration = configuration
        self.env = environment
        self.clock = clock
        self.start = clock.now
        self.lastPing = clock.now
        self.lastTrim = clock.now
        self.engine = RuleEngine(rules: configuration.rules)
        self.derived = DerivedSensors(configuration.derived)
        self.metrics = MetricsRecorder(startTime: environment.wallClock())
        let persist = environment.persist
        self.stateWriter = LatestValueWriter { kept in persist(kept.values.sorted { $0.key < $1.key }) }
        // Kept alerts of rules that no longer exist cannot resolve; forget them.
        let names = Set(configuration.rules.map(\.name))
        for alert in environment.restored where names.contains(alert.rule) { kept[alert.key] = alert }
        engine.restoreFiring(kept.keys)
    }

    /// Time since start, as the run's timestamps.
    public var now: Timestamp { Timestamp(nanoseconds: start.duration(to: clock.now).nanoseconds) }

    /// Discovers sources, loads rules, says READY, and runs until ``requestStop()``.
    public func run() async {
        startEverything()
        env.notifier.notify("READY=1\n" + statusAssignment(statusCounts()))
        StartupPages.release()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            if hasFinished { c.resume() } else { finished = c }
        }
    }

    /// Stops polling, drains what was read, keeps state, and makes ``run()`` return.
    public func requestStop() {
        guard !stopping else { return }
        stopping = true
        env.notifier.notify("STOPPING=1")
        Task { @MainActor in
            await stopEverything()
            stateWriter.submit(kept)
            stateWriter.finish()
            hasFinished = true
            finished?.resume()
            finished = nil
        }
    }

    /// Re-reads the configuration; a bad one is logged and the running one kept. Alert
    /// state of rules that still exist survives.
    public func requestReload() {
        guard !stopping else { return }
        if reloading {
            reloadAgain = true
            return
        }
        reloading = true
        Task { @MainActor in
            repeat {
                reloadAgain = false
                await reloadOnce()
            } while reloadAgain && !stopping
            reloading = false
        }
    }

    private func reloadOnce() async {
        env.notifier.notify("RELOADING=1")
        let next: Configuration
        do {
            next = try env.reload()
        } catch {
            for e in error.errors { env.log(3, "reload failed, keeping the running configuration: \(e)") }
            env.notifier.notify("READY=1\n" + statusAssignment(statusCounts()))
            return
        }
        await stopLoop()
        // Sources whose configuration is unchanged keep running: their open files stay
        // open and a scenario keeps playing where it is instead of starting over.
        var keep: [RunningSource] = []
        for source in sources {
            if let i = next.sources.firstIndex(of: source.configuration),
                !keep.contains(where: { $0.configuration == next.sources[i] })
            {
                keep.append(source)
            } else {
                await stop(source)
            }
        }
        guard !stopping else { return }
        if next.metrics != configuration.metrics { await metricsWriter?.stop() }
        configuration = next
        engine.replaceRules(next.rules, at: now)
        if next.derived != derived.configurations {
            derived = DerivedSensors(next.derived)
            derivedLearned = [:]
        }
        let names = Set(next.rules.map(\.name))
        if kept.keys.contains(where: { !names.contains($0.rule) }) {
            kept = kept.filter { names.contains($0.key.rule) }
            stateWriter.submit(kept)
        }
        for source in keep { source.poller.requestDiscovery() }
        startSources(keeping: keep)
        startLoop()
        if metricsWriter?.configuration != next.metrics { startMetricsWriter() }
        env.log(6, "configuration reloaded: \(next.sources.count) sources, \(next.rules.count) rules")
        env.notifier.notify("READY=1\n" + statusAssignment(statusCounts()))
        StartupPages.release()
    }

    // MARK: - Parts

    /// A polled source: its configuration, its poller, and the task committing its cycles.
    private struct RunningSource {
        var configuration: SourceConfiguration
        var poller: SourcePoller
        var consumer: Task<Void, Never>
    }

    private func startEverything() {
        for info in derived.sensors { engine.register(info, at: now) }
        startSources(keeping: [])
        startLoop()
        startStallWatch()
        startMetricsWriter()
    }

    /// Starts writing the metrics file the configuration names, if any (SPEC §12).
    private func startMetricsWriter() {
        metricsWriter = configuration.metrics.map {
            MetricsTextfileWriter(configuration: $0, clock: clock, snapshot: { [unowned self] in
                metrics.snapshot(engine: engine, version: env.version)
            }, log: env.log)
        }
        metricsWriter?.start()
    }

    /// Watches for polls hanging in the kernel (see ``StallWatch``). Real time only: a
    /// test's manual clock has no hanging drivers, and an extra sleeper would change what
    /// its tests wait for.
    private func startStallWatch() {
        guard clock is ContinuousClock else { return }
        let watch = StallWatch()
        watch.watch(sources.map(\.poller))
        watch.start()
        stallWatch = watch
    }

    /// Starts every configured source not in `keeping`, in configuration order.
    private func startSources(keeping: [RunningSource]) {
        let t = now
        var running: [RunningSource] = []
        var reused = keeping
        for config in configuration.sources {
            if let i = reused.firstIndex(where: { $0.configuration == config }) {
                running.append(reused.remove(at: i))
                continue
            }
            let reader = env.makeReader(config)
            sourcesStarted += 1
            let poller = SourcePoller(
                reader: reader, interval: config.interval, pacer: makePacer(),
                key: "\(reader.source)#\(sourcesStarted)", consumerExecutor: mainQueue)
            for info in poller.discoverNow(at: t) { engine.register(info, at: t) }
            let consumer = Task(executorPreference: mainQueue) { [weak self] in
                await self?.consume(poller.cycles) ?? ()
            }
            poller.start()
            running.append(RunningSource(configuration: config, poller: poller, consumer: consumer))
        }
        sources = running
        stallWatch?.watch(running.map(\.poller))
    }

    /// Starts the rule loop (and the heartbeat that lets it feed the watchdog).
    private func startLoop() {
        let loop = TrackingLoop(data: data, quantities: Simulator.quantities(needed: configuration.rules), heartbeat: true)
        trackingLoop = loop
        loopTask = Task(executorPreference: mainQueue) { [weak self] in
            await self?.runLoop(loop) ?? ()
        }
        if let watchdog = env.notifier.watchdogTimeout {
            let beat = watchdog / 4
            heartbeatTask = Task { @MainActor [clock, data] in
                while !Task.isCancelled {
                    do { try await clock.sleep(for: beat) } catch { return }
                    data.beat()
                }
            }
        }
    }

    private func consume(_ cycles: AsyncStream<PollCycle>) async {
        for await cycle in cycles { commit(cycle) }
    }

    private func runLoop(_ loop: TrackingLoop) async {
        await loop.run({ [unowned self] cycle in handle(cycle) }, iteration: { [unowned self] in iteration() })
    }

    /// Real time sleeps on the boot clock directly; any other clock (a test's) is bridged.
    private func makePacer() -> any PollPacer {
        if clock is ContinuousClock { return BootClockPacer(runTimeNow: now) }
        return ClockPacer(clock: clock, start: start)
    }

    private func stop(_ source: RunningSource) async {
        source.poller.stop()
        source.consumer.cancel()
        await source.consumer.value
        // Faults of a source that is gone are not faults any more.
        metrics.forget(source: source.poller.key)
        let ids = Set(source.poller.sensors.map(\.id))
        faulty = faulty.filter { !ids.contains($0.key) }
        derived.forget(source: source.poller.key)
    }

    /// Stops the rule loop after it has evaluated everything committed so far.
    private func stopLoop() async {
        heartbeatTask?.cancel()
        await heartbeatTask?.value
        heartbeatTask = nil
        loopTask?.cancel()
        await loopTask?.value
        loopTask = nil
    }

    private func stopEverything() async {
        stallWatch?.stop()
        stallWatch = nil
        for source in sources { await stop(source) }
        sources = []
        await stopLoop()
        await metricsWriter?.stop()
    }

    /// Commits a cycle and reports sensors that start or stop failing.
    private func commit(_ cycle: PollCycle) {
        data.commit(cycle)
        metrics.record(cycle)
        noteHealth(in: cycle)
        if !derived.isEmpty { commitDerived(after: cycle) }
        metricsWriter?.writeIfDue()
    }

    /// Reports the sensors of a committed cycle that start or stop failing.
    private func noteHealth(in cycle: PollCycle) {
        if let values = cycle.values {
            // Nothing failing now or before: nothing to report (the common case, no ids touched).
            guard !values.faults.isEmpty || !faulty.isEmpty else { return }
            for i in cycle.sensors.indices {
                noteHealth(of: cycle.sensors[i].id, at: cycle.time, fault: values.faults[i], in: cycle)
            }
            return
        }
        for sample in cycle.samples {
            noteHealth(of: sample.sensor, at: sample.time, fault: sample.fault, in: cycle)
        }
    }

    /// Computes the derived sensors from a committed cycle (its inputs share its time) and
    /// commits their readings and ticks as cycles of their own.
    private func commitDerived(after cycle: PollCycle) {
        if derivedLearned[cycle.source] != cycle.discovery || cycle.discovery == 0 {
            derivedLearned[cycle.source] = cycle.discovery
            derived.learn(source: cycle.source, sensors: cycle.sensors)
        }
        derived.record(
            source: cycle.source, time: cycle.time, tick: cycle.tick,
            readings: cycle.samples.lazy.map { ($0.sensor, $0.time, $0.value) })
        for derivedCycle in derived.cycles(of: derived.drain(through: cycle.time), sensors: derived.sensors) {
            data.commit(derivedCycle)
            metrics.record(derivedCycle)
            for sample in derivedCycle.samples {
                noteHealth(of: sample.sensor, at: sample.time, fault: sample.fault, in: derivedCycle)
            }
        }
    }

    /// Reports a sensor that starts failing (`fault` set) or stops failing; rare, so the
    /// sensor is looked up in the cycle by a scan.
    private func noteHealth(of id: SensorID, at time: Timestamp, fault reason: String?, in cycle: PollCycle) {
        if let reason {
            guard faulty.updateValue(reason, forKey: id) == nil else { return }
        } else {
            guard !faulty.isEmpty, faulty.removeValue(forKey: id) != nil else { return }
        }
        guard let sensor = cycle.sensors.first(where: { $0.id == id }) else { return }
        env.sink.emit(SensorFault(time: time, sensor: sensor, reason: reason))
    }

    private func handle(_ cycle: PollCycle) {
        var events: [AlertEvent] = []
        engine.process(cycle, into: &events)
        guard !events.isEmpty else { return }
        var changed = false
        for event in events {
            env.sink.emit(event)
            metrics.count(event)
            let key = AlertKey(rule: event.rule, sensor: event.sensor.id)
            switch event.kind {
            case .firing:
                kept[key] = PersistedAlert(firing: event, since: env.wallClock())
                changed = true
            case .resolved:
                changed = kept.removeValue(forKey: key) != nil || changed
            case .repeat:
                kept[key]?.value = event.value
            }
        }
        if changed { stateWriter.submit(kept) }
    }

    /// A drain this large means the loop fell behind (a busy machine): the backlog's memory
    /// is free again, but glibc keeps it unless asked to give it back.
    static var backlogWorthTrimming: Int { 32 }
    /// How often freed heap memory is given back at the latest.
    static var trimInterval: Duration { .seconds(10) }

    private func iteration() {
        // Bursts of events free what they allocated, but glibc keeps the pages; give them
        // back after a backlog and otherwise every `trimInterval`, so RSS stays flat.
        if let loop = trackingLoop, loop.lastDrainCount >= Self.backlogWorthTrimming
            || lastTrim.duration(to: clock.now) >= Self.trimInterval
        {
            lastTrim = clock.now
            env.trimMemory()
        }
        if let watchdog = env.notifier.watchdogTimeout, lastPing.duration(to: clock.now) >= watchdog / 4 {
            lastPing = clock.now
            env.notifier.notify("WATCHDOG=1")
        }
        // The counts are compared first: building the text on every poll cycle was a
        // visible share of a cycle's fixed cost.
        let counts = statusCounts()
        if counts != lastStatusCounts {
            lastStatusCounts = counts
            let status = statusAssignment(counts)
            if status != lastStatus {
                lastStatus = status
                env.notifier.notify(status)
            }
        }
        if let hang = env.hangAfter, now - .zero >= hang {
            env.log(4, "test hook: the rule loop hangs now (SENSORWATCH_TEST_HANG_AFTER)")
            while true { blockForever() }
        }
    }

    /// What `STATUS=` says: sensors, faulty sensors, firing alerts.
    private func statusCounts() -> (sensors: Int, faulty: Int, firing: Int) {
        (sources.reduce(0) { $0 + $1.poller.sensorCount }, faulty.count, kept.count)
    }

    private func statusAssignment(_ c: (sensors: Int, faulty: Int, firing: Int)) -> String {
        return "STATUS=\(c.sensors) sensor\(c.sensors == 1 ? "" : "s"), \(c.faulty) faulty, \(c.firing) firing"
    }
}

/// Blocks the calling thread (a test hook; never returns in practice).
private func blockForever() {
    _ = sleep(3600)
}
