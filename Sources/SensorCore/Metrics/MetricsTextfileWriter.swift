#if canImport(Glibc)
import Glibc
#endif

/// Keeps the Prometheus textfile of `metrics.textfile` written while the daemon runs (SPEC §12).
///
/// Every `interval` (the first time after at most 1 s, once every source has been read) it
/// takes a ``MetricsSnapshot``, renders it with ``PrometheusExposition`` and replaces the
/// file atomically: the text goes to ``MetricsConfiguration/temporaryFile`` in the same
/// directory (a name node_exporter does not read), is given mode 0644 with `fchmod` (the
/// unit's `UMask=0077` would leave it unreadable to node_exporter), and is renamed over
/// the file. No fsync: the file describes the running process and is worthless after a
/// crash. ``stop()`` removes it, so a stopped daemon shows as absent rather than frozen.
///
/// A failing write (a missing directory, a full disk) is logged once per distinct error
/// and once when writing works again; the daemon keeps running either way.
@MainActor
public final class MetricsTextfileWriter<C: Clock> where C.Duration == Duration {
    /// Where and how often.
    public let configuration: MetricsConfiguration
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
        self.configuration = configuration
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

    /// Stops writing and removes the file (and a temporary file a failed write left).
    public func stop() async {
        task?.cancel()
        await task?.value
        task = nil
        unlink(configuration.textfile)
        unlink(configuration.temporaryFile)
    }

    /// Writes the file now; returns whether it worked.
    @discardableResult
    public func writeNow() -> Bool {
        let text = PrometheusExposition.render(snapshot())
        let problem = Self.replace(configuration.textfile, via: configuration.temporaryFile, with: text)
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

    /// Replaces `path` with `text` through `temporary`; nil on success, else what failed.
    static func replace(_ path: String, via temporary: String, with text: String) -> String? {
        func failure(_ step: String, _ file: String) -> String {
            "\(step) \(file): \(String(cString: strerror(errno)))"
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return failure("open", temporary) }
        var problem: String?
        var text = text
        let written = text.withUTF8 { buf in FileDescriptorWriter.writeAll(fd, buf) }
        if !written {
            problem = failure("write", temporary)
        } else if fchmod(fd, 0o644) != 0 {
            problem = failure("chmod", temporary)
        }
        close(fd)
        if problem == nil, rename(temporary, path) != 0 { problem = failure("rename to", path) }
        if problem != nil { unlink(temporary) }
        return problem
    }
}
