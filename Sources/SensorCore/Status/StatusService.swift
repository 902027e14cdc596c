#if canImport(Glibc)
import Glibc
#endif

/// The status file as a service (SPEC §19): one more observer of ``SensorData``, as
/// ``MetricsService`` is.
///
/// It follows the model with re-armed one-shot `withObservationTracking` — sensor health
/// (``SensorData/faulty``), the firing count, discoveries, and the model's whole second
/// (so an alert that turns pending, which changes nothing observable, is seen within a
/// second) — and rewrites the file when the health of a sensor or the state of an alert
/// changed, and again before 10 s have passed since the last write, so the values and
/// `updated` stay fresh and `status --check` can tell a frozen daemon from a quiet one.
/// That rewrite rides on the model's wake-ups: it is done at the last model second that
/// comes before the 10 s are up, and a timer through the injected clock, moved at every
/// write, is left only for sources slower than that; while polls keep up it never expires,
/// a thread woken every 10 s for nothing (`bench/wakeups.sh`, figures in bench/README.md). Without a path it observes nothing. Cancelled (a clean
/// stop), it removes the file, so a stopped daemon shows as absent rather than frozen.
///
/// The file is written the way the metrics file is (``AtomicFileWriter``:
/// a hidden temporary file in the same directory, mode 0644, renamed into place).
@DaemonActor
final class StatusService<C: Clock>: Service where C.Duration == Duration {
    /// The longest the file goes unwritten while the daemon runs.
    static var refresh: Duration { .seconds(10) }

    private let path: String?
    private let data: SensorData
    private let ledger: AlertLedger
    private let clock: C
    private let startTime: Double
    private let wallClock: @Sendable () -> Double
    private let version: String
    private let sleep: @Sendable (Duration) async throws -> Void
    private let engine: @DaemonActor () -> RuleEngine
    private var lastShape: [String]?
    private var lastWrite: C.Instant?
    private let problems: WriteProblemLog
    /// Fired by a write: the timer's wait for the next 10 s is moved.
    private var rewritten = ChangeSignal()
    /// How many times the file was written (tests wait for it).
    private(set) var writeCount = 0
    /// How many times the model was looked at (tests wait for it).
    private(set) var lookCount = 0

    /// - Parameters:
    ///   - path: the status file; nil: none.
    ///   - startTime: Unix time (seconds) of the run's time zero.
    ///   - engine: the rule loop's engine as it is now.
    init(
        path: String?, data: SensorData, ledger: AlertLedger, clock: C, startTime: Double,
        wallClock: @escaping @Sendable () -> Double, version: String,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        log: any DaemonLog,
        engine: @escaping @DaemonActor () -> RuleEngine
    ) {
        self.path = path
        self.data = data
        self.ledger = ledger
        self.clock = clock
        self.startTime = startTime
        self.wallClock = wallClock
        self.version = version
        self.sleep = sleep
        self.engine = engine
        problems = WriteProblemLog(
            log: log, failed: { "cannot write the status file: \($0); retrying every 10s" },
            recovered: "the status file \(path ?? "") is written again")
    }

    func run() async {
        guard let path else { return await untilCancelled() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followModel() }
            group.addTask { await self.runTimer() }
            await group.waitForAll()
        }
        Self.writer(of: path).remove()
    }

    /// The report of now.
    func report() -> StatusReport {
        StatusReport(
            version: version, pid: Int(getpid()), started: startTime, updated: wallClock(), data: data, engine: engine(),
            firingSince: { [ledger] in ledger.firingSince($0) })
    }

    private func followModel() async {
        var lastWake: C.Instant?
        while !Task.isCancelled {
            let wake = clock.now
            // The gap to the next wake-up, as the last one was: when one and a half of it
            // would reach the time to refresh, the refresh is now (no timer wake-up, and
            // room for a late poll).
            let gap = lastWake.map { $0.duration(to: wake) } ?? .zero
            lastWake = wake
            let now = report()
            let refreshDue = lastWrite.map { !(wake.advanced(by: gap + gap / 2) < $0.advanced(by: Self.refresh)) } ?? true
            if now.shape != lastShape || refreshDue { write(now) }
            lookCount += 1
            await nextChange(of: { [data, ledger] in
                _ = data.faulty
                _ = data.sensorCount
                _ = data.latestSecond
                _ = ledger.firingCount
            })
        }
    }

    private func runTimer() async {
        while !Task.isCancelled {
            let due = lastWrite.map { $0.advanced(by: Self.refresh) } ?? clock.now
            let wait = clock.now.duration(to: due)
            if wait > .zero {
                let moved = rewritten
                _ = await untilSignalled(moved) { [sleep] in (try? await sleep(wait)) != nil }
                if Task.isCancelled { return }
            }
            if let last = lastWrite, clock.now < last.advanced(by: Self.refresh) { continue }
            write(report())
        }
    }

    private func write(_ report: StatusReport) {
        guard let path else { return }
        lastShape = report.shape
        lastWrite = clock.now
        writeCount += 1
        rewritten.fire()
        rewritten = ChangeSignal()
        do throws(AtomicFileWriter.Failure) {
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
