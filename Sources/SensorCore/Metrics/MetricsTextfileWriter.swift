/// Keeps the Prometheus textfile of `metrics.textfile` written while the daemon runs (SPEC §12).
///
/// Every `interval` (the first time after at most 1 s, once every source has been read) it
/// takes a ``MetricsSnapshot`` on the main actor and hands it to a ``MetricsTextfile``,
/// which renders it and replaces the file atomically. ``stop()``
/// removes the file, so a stopped daemon shows as absent rather than frozen.
///
/// A failing write (a missing directory, a full disk) is logged once per distinct error
/// and once when writing works again; the daemon keeps running either way.
@MainActor
public final class MetricsTextfileWriter<C: Clock> where C.Duration == Duration {
    /// Where and how often.
    public var configuration: MetricsConfiguration { file.configuration }
    private let file: MetricsTextfile
    private let clock: C
    private let snapshot: @MainActor () -> MetricsSnapshot
    private let log: @Sendable (_ priority: Int, _ message: String) -> Void
    private var task: Task<Void, Never>?
    private var lastProblem: String?

    /// - Parameters:
    ///   - snapshot: called on the main actor at each write for the state to show.
    ///   - log: logs a daemon message at a syslog priority.
    public init(
        configuration: MetricsConfiguration, clock: C, snapshot: @escaping @MainActor () -> MetricsSnapshot,
        log: @escaping @Sendable (_ priority: Int, _ message: String) -> Void
    ) {
        self.file = MetricsTextfile(configuration: configuration)
        self.clock = clock
        self.snapshot = snapshot
        self.log = log
    }

    /// Starts writing: the first file after `min(interval, 1s)`, then every `interval`.
    public func start() {
        guard task == nil else { return }
        let first = min(configuration.interval, .seconds(1))
        task = Task { @MainActor [weak self, clock, configuration] in
            var wait = first
            while !Task.isCancelled {
                do { try await clock.sleep(for: wait) } catch { return }
                self?.writeNow()
                wait = configuration.interval
            }
        }
    }

    /// Stops writing and removes the file.
    public func stop() async {
        task?.cancel()
        await task?.value
        task = nil
        file.remove()
    }

    /// Writes the file now; returns whether it worked.
    @discardableResult
    public func writeNow() -> Bool {
        let problem = file.publish(snapshot())
        if problem != lastProblem {
            if let problem {
                log(4, "cannot write the metrics file: \(problem); retrying every \(DurationParser.format(configuration.interval))")
            } else {
                log(5, "the metrics file \(configuration.textfile) is written again")
            }
            lastProblem = problem
        }
        return problem == nil
    }
}
