#if canImport(Glibc)
import Glibc
#endif
public import SensorConfig
public import SensorCore
public import SensorRuntime
/// The long-running service behind `sensorwatch run`: a ``ServiceGroup`` of
///
/// - ``AlertLedger``: which alerts fire, kept in the state file (stops last: flushes);
/// - ``SensorHealthReporter``: sensor-fault and recovery entries, from ``SensorData``;
/// - ``ServiceStatus``: READY/RELOADING/STOPPING and `STATUS=`, from ``SensorData``;
/// - ``MetricsService``: the Prometheus file, from ``SensorData``, the engine and the ledger;
/// - ``StatusService``: the status file (SPEC §19), from the same three;
/// - ``RuleLoop``: every committed cycle through the ``RuleEngine``; feeds the watchdog;
/// - ``SourceSupervisor``: one poll thread per source, committing to ``SensorData``;
/// - the reloads (SIGHUP) and the signals, as asynchronous sequences.
///
/// ``SensorData`` is the one place that knows the present; everything that reports it
/// observes it. Time comes from an injected clock (``RunClock``), and so does every wait.
@DaemonActor
public final class Daemon<C: RunClock> {
    /// What the daemon needs from outside, injected so tests can replace each part.
    public struct Environment: Sendable {
        /// Where alert events and sensor faults go.
        public var sink: any AlertSink
        /// The service manager (sd_notify) or a no-op.
        public var notifier: any ServiceNotifier
        /// Where daemon messages (not alerts) go.
        public var log: any DaemonLog
        /// Re-reads the configuration on reload.
        public var reload: @Sendable () throws(ConfigErrors) -> Configuration
        /// Alerts that were firing when the daemon last stopped (from the state file).
        public var restored: [PersistedAlert]
        /// Called with every alert that fires whenever that set changes (to keep state).
        public var persist: @Sendable ([PersistedAlert]) -> Void
        /// The time of day, for the `since` of kept alerts and the status file's times.
        public var wallClock: any WallClock
        /// Builds the reader of a source: SensorCLI's `SourceReaders` in the executable,
        /// fakes in tests (the core reads no sysfs itself).
        public var makeReader: @Sendable (SourceConfiguration) -> any SensorReader
        /// Gives freed heap memory back to the kernel (the executable passes glibc's
        /// `malloc_trim`); called by the rule loop after a backlog and every 10 s.
        public var trimMemory: @Sendable () -> Void
        /// Called after READY and after each reload, when start-up work is done (the
        /// executable pages out start-up code there).
        public var settled: @Sendable () -> Void
        /// The binary's version, shown by the metrics file's `sensorwatch_build_info`.
        public var version: String
        /// The status file when the configuration names none (`status.json` in the ``RuntimeDirectory``); nil: none.
        public var defaultStatusFile: String?
        /// What serves the model to readers outside (the live stream's server, SPEC §22).
        public var publishers: [any ModelPublisher] = []

        /// An environment of the given parts; the defaults notify no service manager, log to memory, restore and keep no alerts, and trim nothing.
        public init(
            sink: any AlertSink, notifier: any ServiceNotifier = NoOpNotifier(),
            log: any DaemonLog = MemoryLog(),
            reload: @escaping @Sendable () throws(ConfigErrors) -> Configuration,
            restored: [PersistedAlert] = [],
            persist: @escaping @Sendable ([PersistedAlert]) -> Void = { _ in },
            wallClock: any WallClock = SystemWallClock(),
            makeReader: @escaping @Sendable (SourceConfiguration) -> any SensorReader,
            trimMemory: @escaping @Sendable () -> Void = {},
            settled: @escaping @Sendable () -> Void = {},
            version: String = "unknown",
            defaultStatusFile: String? = nil
        ) {
            self.version = version
            self.defaultStatusFile = defaultStatusFile
            self.sink = sink
            self.notifier = notifier
            self.log = log
            self.reload = reload
            self.restored = restored
            self.persist = persist
            self.wallClock = wallClock
            self.makeReader = makeReader
            self.trimMemory = trimMemory
            self.settled = settled
        }
    }

    private let env: Environment
    private let ledger: AlertLedger
    private let status: ServiceStatus
    private let ruleLoop: RuleLoop
    private let metrics: MetricsService<C>
    private let supervisor: SourceSupervisor
    private let data: SensorData
    private let group: ServiceGroup
    private let reloadRequests: AsyncStream<Void>.Continuation
    private var signals: AsyncStream<DaemonSignal>?
    /// Fired at READY (a reload asked for earlier waits for it).
    private let readied = ChangeSignal()
    /// The lifecycle; each change is announced to the service manager.
    public private(set) var phase = DaemonPhase.starting {
        didSet { if phase != oldValue { status.enter(phase) } }
    }

    /// Sets the daemon up; nothing runs until ``run(signals:)``.
    public init(configuration: Configuration, environment env: Environment, clock: C) {
        self.env = env
        let start = clock.now
        let data = SensorData()
        self.data = data
        ledger = AlertLedger(
            restored: env.restored, rules: configuration.rules, persist: env.persist, wallClock: env.wallClock)
        if let failure = ledger.writerFailure {
            env.log.log(.warning, "\(failure); the alert state is written on the rule loop", kind: .stateFile)
        }
        let lifecycle = ServiceLifecycle(notifier: env.notifier)
        status = ServiceStatus(data: data, ledger: ledger, lifecycle: lifecycle)
        // Every timed wait goes through the clock: the tasks' sleeps, the poll threads' pacing
        // and the stall watches' alarms. A test's manual clock runs this very path.
        let runTime = RunTime(clock: clock, start: start)
        ruleLoop = RuleLoop(
            rules: configuration.rules, data: data, sink: env.sink, ledger: ledger, lifecycle: lifecycle,
            runTime: runTime, trimMemory: env.trimMemory)
        supervisor = SourceSupervisor(
            sources: configuration.sources, derived: configuration.derived, data: data, makeReader: env.makeReader,
            makePacer: { PollPacer(clock: clock, start: start) }, wait: { try? await clock.sleep(for: $0) },
            log: env.log)
        let loop = ruleLoop
        let model = DaemonModel(
            data: data, started: env.wallClock.now.seconds, wallClock: env.wallClock, runTime: runTime, log: env.log,
            ledger: ledger, engine: { loop.rules })
        metrics = MetricsService(configuration: configuration.metrics, model: model, clock: clock, version: env.version)
        let statusFile = StatusService(
            path: configuration.statusFile ?? env.defaultStatusFile, model: model, clock: clock, version: env.version)
        let published = env.publishers.map { $0.service(for: model) }
        let reloads: AsyncStream<Void>
        (reloads, reloadRequests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let reloader = Reloader(reloads)
        let signalWatch = SignalWatch()
        group = ServiceGroup(
            [
                ledger, SensorHealthReporter(data: data, sink: env.sink), status, metrics, statusFile,
            ] + published + [ruleLoop, supervisor, reloader, signalWatch])
        supervisor.onStarted = { [unowned self] in ready() }
        supervisor.onStopped = { [ruleLoop] in ruleLoop.forget(source: $0) }
        supervisor.onPresence = { [unowned self] in
            for presence in $0 { env.sink.emit(presence) }
            // A device came or went: a rule that still selects nothing is said again.
            if phase != .starting { logUnselectedRules() }
        }
        reloader.daemon = { [unowned self] in await reloadOnce() }
        signalWatch.handle = { [unowned self] in handle($0) }
        signalWatch.signals = { [unowned self] in signals }
    }

    /// Starts the sources, says READY once they are discovered (or after a second), and
    /// runs until ``requestStop()`` or a stop signal; returns when everything has stopped
    /// and the state is written.
    public func run(signals: AsyncStream<DaemonSignal>? = nil) async {
        self.signals = signals
        // Resumes from poll threads come straight to the actor's executor (see DaemonExecutor).
        try? await withTaskExecutorPreference(DaemonActor.taskExecutor) { try await group.run() }
    }

    /// Stops polling, evaluates what was read, keeps state, and makes ``run(signals:)`` return.
    public func requestStop() {
        guard phase != .stopping else { return }
        phase = .stopping
        group.shutdown()
    }

    /// Re-reads the configuration; a bad one is logged and the running one kept. Alert
    /// state of rules that still exist survives. Requests made during a reload make one more.
    public func requestReload() {
        guard phase != .stopping else { return }
        reloadRequests.yield()
    }

    private func handle(_ signal: DaemonSignal) {
        switch signal {
        case .reload: requestReload()
        case .stop: requestStop()
        }
    }

    private func ready() {
        guard phase == .starting else { return }
        phase = .running
        logUnselectedRules()
        readied.fire()
        env.settled()
    }

    /// A warning for each rule that selects no sensor now (a typo, an unplugged device): it
    /// would never fire, silently. Logged at start and after each change of the sensors.
    private func logUnselectedRules() {
        let sensors = data.readings.flatMap(\.list.sensors)
        for finding in RuleSelection.unselected(ruleLoop.rules.rules, sensors: sensors) {
            env.log.log(.warning, finding.message)
        }
    }

    private func reloadOnce() async {
        // A reload asked for before READY waits for it.
        if phase == .starting { await untilSignalledOrCancelled(readied) }
        guard phase == .running else { return }
        phase = .reloading
        let next: Configuration
        do {
            next = try env.reload()
        } catch {
            for e in error.errors {
                env.log.log(.error, "reload failed, keeping the running configuration: \(e)", kind: .configReloadFailed)
            }
            phase = .running
            return
        }
        guard phase == .reloading else { return }
        ruleLoop.replaceRules(next.rules)
        ledger.keepOnly(next.rules)
        supervisor.apply(next.sources, derived: next.derived)
        metrics.reconfigure(next.metrics)
        env.log.log(
            .info,
            "configuration reloaded: " + Count.of(next.sources.count, "source") + ", "
                + Count.of(next.rules.count, "rule"))
        phase = .running
        env.settled()
    }
}

/// Runs the reloads asked for, one at a time (requests during one coalesce into one more).
@DaemonActor
private final class Reloader: Service {
    private let requests: AsyncStream<Void>
    var daemon: @DaemonActor () async -> Void = {}

    init(_ requests: AsyncStream<Void>) { self.requests = requests }

    func run() async {
        for await _ in requests {
            await daemon()
        }
    }
}

/// Hands the process's signals to the daemon.
@DaemonActor
private final class SignalWatch: Service {
    var signals: @DaemonActor () -> AsyncStream<DaemonSignal>? = { nil }
    var handle: @DaemonActor (DaemonSignal) -> Void = { _ in }

    func run() async {
        guard let signals = signals() else { return await untilCancelled() }
        for await signal in signals { handle(signal) }
    }
}
