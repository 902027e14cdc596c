#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime

/// The status file (SPEC §19): a ``PublishedFile`` run by the one ``PublishedFileService``,
/// as the metrics file is.
///
/// It observes sensor health (``SensorData/faulty``), the firing count, discoveries, and the
/// model's whole second (so an alert that turns pending, which changes nothing observable,
/// is seen within a second), and rewrites the file when the health of a sensor or the state
/// of an alert changed, and again before 10 s have passed since the last write, so the values
/// and `updated` stay fresh and `status --check` can tell a frozen daemon from a quiet one.
/// That rewrite rides on the model's wake-ups: it is done at the last model second that
/// comes before the 10 s are up, and the timer, moved at every write, is left only for
/// sources slower than that; while polls keep up it never expires, a thread woken every 10 s
/// for nothing (`bench/wakeups.sh`, figures in bench/README.md). Without a path it observes
/// nothing. Cancelled (a clean stop), it removes the file.
///
/// The file is written the way the metrics file is (``AtomicFileWriter``:
/// a hidden temporary file in the same directory, mode 0644, renamed into place).
@DaemonActor
final class StatusService<C: RunClock>: Service, PublishedFile {
    /// The longest the file goes unwritten while the daemon runs.
    static var refresh: Duration { .seconds(10) }

    private let path: String?
    private let model: DaemonModel
    private let clock: C
    private let version: String
    private var lastShape: [String]?
    private var lastWrite: C.Instant?
    private let problems: WriteProblemLog
    /// When the model last woke the file.
    private var lastWake: C.Instant?
    private lazy var service = PublishedFileService(file: self, clock: clock)
    /// How many times the file was written (tests wait for it).
    let writes = EventCount()
    var writeCount: Int { writes.value }
    /// How many times the model was looked at (tests wait for it).
    private(set) var lookCount = 0

    /// - Parameters:
    ///   - path: the status file; nil: none.
    ///   - model: what the file shows, as the metrics file and the live stream read it.
    init(path: String?, model: DaemonModel, clock: C, version: String) {
        self.path = path
        self.model = model
        self.clock = clock
        self.version = version
        problems = WriteProblemLog(
            log: model.log, failed: { "cannot write the status file: \($0); retrying every 10s" },
            recovered: "the status file \(path ?? "") is written again")
    }

    func run() async {
        guard path != nil else { return await untilCancelled() }
        await service.run()
    }

    /// The report of now.
    func report() -> StatusReport {
        StatusReport(
            version: version, pid: Int(getpid()), started: model.started, updated: model.wallClock.now.seconds,
            data: model.data, engine: model.engine(), firingSince: { [ledger = model.ledger] in ledger.firingSince($0) }
        )
    }

    func observe() {
        _ = model.data.faulty
        _ = model.data.sensorCount
        _ = model.data.latestSecond
        model.observeAlerts()
    }

    func modelChanged() -> Bool {
        let wake = clock.now
        // The gap to the next wake-up, as the last one was: when one and a half of it would
        // reach the time to refresh, the refresh is now (no timer wake-up, and room for a
        // late poll).
        let gap = lastWake.map { $0.duration(to: wake) } ?? .zero
        lastWake = wake
        let now = report()
        let refreshDue = lastWrite.map { !(wake.advanced(by: gap + gap / 2) < $0.advanced(by: Self.refresh)) } ?? true
        lookCount += 1
        guard now.shape != lastShape || refreshDue else { return false }
        write(now)
        return true
    }

    var timerWait: Duration? {
        guard path != nil else { return nil }
        return lastWrite.map { clock.now.duration(to: $0.advanced(by: Self.refresh)) } ?? .zero
    }

    func timerFired() {
        if let last = lastWrite, clock.now < last.advanced(by: Self.refresh) { return }
        write(report())
    }

    func remove() {
        if let path { Self.writer(of: path).remove() }
    }

    private func write(_ report: StatusReport) {
        guard let path else { return }
        lastShape = report.shape
        lastWrite = clock.now
        writes.increment()
        do throws(SystemError) {
            try Self.writer(of: path).write(report.json)
            problems.note(nil)
        } catch {
            problems.note(error.description)
        }
    }

    /// As ``AtomicFileWriter`` documents for the status file: like the metrics file, it
    /// describes the running process (not durable), readable by all, its pages reused.
    static func writer(of path: String) -> AtomicFileWriter {
        AtomicFileWriter(
            path: path,
            options: AtomicFileWriter.Options(
                temporary: .named(ConfigPath.hiddenSibling(of: path, suffix: ".tmp")), reusesReplaced: true))
    }
}
