/// The metrics file as a service (SPEC §12): records every committed cycle and every event
/// (``MetricsRecorder``), writes after polls when a write is due, and runs the writer's
/// backstop timer. Without `metrics` in the configuration it only waits. Cancelled, it
/// removes the file.
@DaemonActor
final class MetricsService<C: Clock>: Service where C.Duration == Duration {
    private var recorder: MetricsRecorder
    private var writer: MetricsTextfileWriter<C>?
    private let clock: C
    private let sleep: @Sendable (Duration) async throws -> Void
    private let log: @Sendable (_ priority: Int, _ message: String) -> Void
    private let version: String
    /// The engine's alerts, for each snapshot.
    private let engine: @DaemonActor () -> RuleEngine
    /// Ends the timer's current wait (a new configuration).
    private var rearm: ChangeSignal?

    init(
        configuration: MetricsConfiguration?, clock: C, startTime: Double, version: String,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        log: @escaping @Sendable (_ priority: Int, _ message: String) -> Void,
        engine: @escaping @DaemonActor () -> RuleEngine
    ) {
        recorder = MetricsRecorder(startTime: startTime)
        self.clock = clock
        self.sleep = sleep
        self.log = log
        self.version = version
        self.engine = engine
        writer = configuration.map(makeWriter)
    }

    func run() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            rearm = signal
            let wait = writer?.timerWait
            let sleep = self.sleep
            let timedOut = await withTaskGroup(of: Bool.self) { group -> Bool in
                group.addTask {
                    await untilCancelled(signal)
                    return false
                }
                if let wait {
                    group.addTask { (try? await sleep(wait)) != nil }
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            if timedOut { writer?.timerFired() }
        }
        writer?.stop()
    }

    /// Notes a committed cycle (of a source or a derived sensor); nothing without a file to
    /// write (a reload that adds one shows each sensor from its next poll on).
    func record(_ cycle: PollCycle) {
        if writer != nil { recorder.record(cycle) }
    }

    /// Counts events its rules sent.
    func count(_ events: [AlertEvent]) {
        for event in events { recorder.count(event) }
    }

    /// Forgets a source that stopped.
    func forget(source: String) { recorder.forget(source: source) }

    /// Writes if a write is due (after a poll's cycles are committed: no wake-up of its own).
    func afterPoll() { writer?.writeIfDue() }

    /// Switches to a new `metrics` configuration (a reload); the same one changes nothing.
    func reconfigure(_ configuration: MetricsConfiguration?) {
        guard configuration != writer?.configuration else { return }
        writer?.stop()
        writer = configuration.map(makeWriter)
        rearm?.fire()
    }

    private func makeWriter(_ configuration: MetricsConfiguration) -> MetricsTextfileWriter<C> {
        MetricsTextfileWriter(configuration: configuration, clock: clock, snapshot: { [unowned self] in
            recorder.snapshot(engine: engine(), version: version)
        }, log: log)
    }
}
