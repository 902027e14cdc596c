/// The metrics file as a service (SPEC §12): one more observer of ``SensorData``.
///
/// It follows the model with re-armed one-shot `withObservationTracking` (its seconds, or
/// every commit for an interval under a second) and, at the first change after a write
/// falls due, writes what the model, the rule engine and the alert ledger hold now. Coalesced wake-ups lose nothing here: the file shows the
/// present, not every sample. The writer's timer (the first write, and a backstop for a
/// daemon whose sources stopped delivering) runs beside it. Without `metrics` in the
/// configuration it observes nothing, so it costs a daemon without a file nothing per
/// poll. Cancelled, it removes the file.
@DaemonActor
final class MetricsService<C: Clock>: Service where C.Duration == Duration {
    private var writer: MetricsTextfileWriter<C>?
    private let data: SensorData
    private let ledger: AlertLedger
    private let clock: C
    private let startTime: Double
    private let sleep: @Sendable (Duration) async throws -> Void
    private let log: any DaemonLog
    private let version: String
    /// The engine's alerts, for each snapshot.
    private let engine: @DaemonActor () -> RuleEngine
    /// The waits in progress, ended early by a new configuration.
    private var modelWaking: ChangeSignal?
    private var timerWaking: ChangeSignal?
    /// How many times the model woke the service (tests wait for it).
    private(set) var modelWakeCount = 0

    /// - Parameters:
    ///   - startTime: Unix time (seconds) of the run's time zero.
    ///   - engine: the rule loop's engine as it is now.
    init(
        configuration: MetricsConfiguration?, data: SensorData, ledger: AlertLedger, clock: C, startTime: Double,
        version: String, sleep: @escaping @Sendable (Duration) async throws -> Void,
        log: any DaemonLog,
        engine: @escaping @DaemonActor () -> RuleEngine
    ) {
        self.data = data
        self.ledger = ledger
        self.clock = clock
        self.startTime = startTime
        self.sleep = sleep
        self.log = log
        self.version = version
        self.engine = engine
        writer = configuration.map(makeWriter)
    }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followModel() }
            group.addTask { await self.runTimer() }
            await group.waitForAll()
        }
        writer?.stop()
    }

    /// Switches to a new `metrics` configuration (a reload); the same one changes nothing.
    func reconfigure(_ configuration: MetricsConfiguration?) {
        guard configuration != writer?.configuration else { return }
        writer?.stop()
        writer = configuration.map(makeWriter)
        modelWaking?.fire()
        timerWaking?.fire()
    }

    /// Writes at the first commit after a write falls due: a write rides on the poll that
    /// brought the change, so it wakes no thread of its own.
    private func followModel() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            modelWaking = signal
            if let writer {
                // An interval of a second or more is followed on the model's seconds (one
                // wake-up a second, not one per commit); a write falls due up to half a
                // second early there, so that the tick of the due second takes it whatever
                // the polls' phase. A reload's new writer does nothing here: its first write
                // is the timer's.
                if writer.configuration.interval >= .seconds(1) {
                    writer.writeIfDue(early: .milliseconds(500))
                    await nextChange(of: { [data] in _ = data.latestSecond }, signal: signal)
                } else {
                    writer.writeIfDue()
                    await nextChange(of: { [data] in data.touchReadings() }, signal: signal)
                }
                modelWakeCount += 1
            } else {
                await untilCancelled(signal)
            }
        }
    }

    /// The first write (within a second) and the backstop for a daemon without polls.
    private func runTimer() async {
        while !Task.isCancelled {
            let signal = ChangeSignal()
            timerWaking = signal
            guard let wait = writer?.timerWait else {
                await untilCancelled(signal)
                continue
            }
            let sleep = self.sleep
            if await untilSignalled(signal, or: { (try? await sleep(wait)) != nil }) { writer?.timerFired() }
        }
    }

    private func makeWriter(_ configuration: MetricsConfiguration) -> MetricsTextfileWriter<C> {
        MetricsTextfileWriter(configuration: configuration, clock: clock, snapshot: { [unowned self] in
            MetricsSnapshot(
                version: version, startTime: startTime, readings: data.readings, engine: engine(),
                eventCount: { [ledger] in ledger.eventCount(rule: $0, kind: $1) })
        }, log: log)
    }
}
