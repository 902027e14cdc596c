public import SensorRuntime
public import SensorConfig

/// Keeps the Prometheus textfile of `metrics.textfile` written while the daemon runs (SPEC §12).
///
/// Every `interval` (the first time after at most 1 s, once every source has been read) it
/// takes a ``MetricsSnapshot`` on the daemon's actor and hands it to a ``MetricsTextfile``,
/// which renders it and replaces the file atomically. ``stop()`` removes the file, so a
/// stopped daemon shows as absent rather than frozen.
///
/// ``MetricsService`` calls ``writeIfDue()`` when it observes a change in ``SensorData``,
/// and that is where the writes normally happen: the file can only change when a poll
/// comes in, and a write that rides on a poll's thread wakes no thread of its own (on a
/// virtual machine two wake-ups cost a fifth of a write). A timer of its own stands in,
/// after four intervals but no less than a minute, for a daemon without polls (its file's
/// modification time keeps moving); ``MetricsService`` runs it (``timerWait`` says how
/// long, ``timerFired()`` what then). Not sooner: each firing wakes two threads, which at
/// `interval: "1s"` was half as many wake-ups again as the polls themselves.
///
/// A failing write (a missing directory, a full disk) is logged once per distinct error
/// and once when writing works again; the daemon keeps running either way.
@DaemonActor
public final class MetricsTextfileWriter<C: RunClock> {
    /// Where and how often.
    public var configuration: MetricsConfiguration { file.configuration }
    private let file: MetricsTextfile
    private let clock: C
    private let snapshot: @DaemonActor () -> MetricsSnapshot
    private let problems: WriteProblemLog
    /// When the next write is due; nil before the first.
    private var nextDue: C.Instant?
    private var stopped = false
    /// How many writes it has made (tests wait for them: `writes.until(n)`).
    package let writes = EventCount()

    /// - Parameters:
    ///   - snapshot: called on the daemon's actor at each write for the state to show.
    ///   - log: where a failing write and its recovery are logged.
    public init(
        configuration: MetricsConfiguration, clock: C, snapshot: @escaping @DaemonActor () -> MetricsSnapshot,
        log: any DaemonLog
    ) {
        self.file = MetricsTextfile(configuration: configuration)
        self.clock = clock
        self.snapshot = snapshot
        problems = WriteProblemLog(
            log: log,
            failed: {
                "cannot write the metrics file: \($0); retrying every \(DurationParser.format(configuration.interval))"
            },
            recovered: "the metrics file \(configuration.textfile) is written again")
    }

    /// How long the timer waits next: `min(interval, 1s)` before the first write, then four
    /// intervals and at least a minute (the backstop for a daemon without polls).
    var timerWait: Duration {
        nextDue == nil ? min(configuration.interval, .seconds(1)) : max(configuration.interval * 4, .seconds(60))
    }

    /// What the timer does when its wait is over: the first write, or a due one.
    func timerFired() {
        if let due = nextDue { _ = writeIfDue(due) } else { writeNow() }
    }

    /// Writes the file if `interval` has passed since the last write, or will within
    /// `early` (the first write is the timer's); returns whether it wrote (or tried to).
    @discardableResult
    public func writeIfDue(early: Duration = .zero) -> Bool {
        if let due = nextDue { return writeIfDue(due.advanced(by: .zero - early)) }
        return false
    }

    private func writeIfDue(_ due: C.Instant) -> Bool {
        guard clock.now >= due else { return false }
        writeNow()
        return true
    }

    /// Stops writing and removes the file; ``writeIfDue()`` does nothing afterwards (polls
    /// go on being committed while a reload replaces the writer).
    public func stop() {
        stopped = true
        nextDue = nil
        file.remove()
    }

    /// Writes the file now; returns whether it worked.
    @discardableResult
    public func writeNow() -> Bool {
        guard !stopped else { return false }
        nextDue = clock.now.advanced(by: configuration.interval)
        let problem = file.publish(snapshot())
        problems.note(problem)
        writes.increment()
        return problem == nil
    }
}
