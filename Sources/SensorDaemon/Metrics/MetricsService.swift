import SensorRuntime
import SensorCore
import SensorConfig

/// The metrics file (SPEC §12): a ``PublishedFile`` run by the one ``PublishedFileService``.
///
/// It follows the model's seconds (or every commit for an interval under a second) and, at
/// the first change after a write falls due, writes what the model, the rule engine and the
/// alert ledger hold now. Its timer writes the first file within a second and is the
/// backstop for a daemon whose sources stopped delivering. Without `metrics` in the
/// configuration it observes nothing, so it costs a daemon without a file nothing per poll.
/// Cancelled, it removes the file.
@DaemonActor
final class MetricsService<C: RunClock>: Service, PublishedFile {
    private var writer: MetricsTextfileWriter<C>?
    private let model: DaemonModel
    private let clock: C
    private let version: String
    private lazy var service = PublishedFileService(file: self, clock: clock)

    /// How many times the model woke the service (tests wait for it).
    var modelWakes: EventCount { service.modelWakes }
    /// How many times the service armed its observation of the model (it has started).
    var armed: EventCount { service.armed }
    /// The current file's writes; nil without a file.
    var writes: EventCount? { writer?.writes }

    /// - Parameter model: what each snapshot shows, as the status file and the live stream read it.
    init(configuration: MetricsConfiguration?, model: DaemonModel, clock: C, version: String) {
        self.model = model
        self.clock = clock
        self.version = version
        writer = configuration.map(makeWriter)
    }

    func run() async { await service.run() }

    /// Switches to a new `metrics` configuration (a reload); the same one changes nothing.
    func reconfigure(_ configuration: MetricsConfiguration?) {
        guard configuration != writer?.configuration else { return }
        writer?.stop()
        writer = configuration.map(makeWriter)
        service.refresh()
    }

    // An interval of a second or more is followed on the model's seconds (one wake-up a
    // second, not one per commit); under a second, every commit.
    func observe() {
        guard let writer else { return }
        if writer.configuration.interval >= .seconds(1) {
            _ = model.data.latestSecond
        } else {
            model.data.touchReadings()
        }
    }

    /// Writes at the first change after a write falls due: a write rides on the poll that
    /// brought the change. On the model's seconds a write falls due up to half a second
    /// early, so that the tick of the due second takes it whatever the polls' phase. A
    /// reload's new writer does nothing here: its first write is the timer's. A write moves
    /// the timer: its backstop counts from the last write, so while polls keep up it never
    /// wakes a thread.
    func modelChanged() -> Bool {
        guard let writer else { return false }
        return writer.writeIfDue(early: writer.configuration.interval >= .seconds(1) ? .milliseconds(500) : .zero)
    }

    var timerWait: Duration? { writer?.timerWait }

    func timerFired() { writer?.timerFired() }

    func remove() { writer?.stop() }

    private func makeWriter(_ configuration: MetricsConfiguration) -> MetricsTextfileWriter<C> {
        MetricsTextfileWriter(
            configuration: configuration, clock: clock,
            snapshot: { [unowned self] in
                MetricsSnapshot(
                    version: version, startTime: model.started, readings: model.data.readings, engine: model.engine(),
                    eventCount: { [ledger = model.ledger] in ledger.eventCount(rule: $0, kind: $1) })
            }, log: model.log)
    }
}
