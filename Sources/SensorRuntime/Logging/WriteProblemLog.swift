import Synchronization

/// Logs a file that cannot be written once per distinct problem, and once when it is
/// written again, so a read-only or full directory cannot flood the journal: the state
/// file, notify's cursors, the status file and the metrics file all say it this way.
///
/// Called from any thread (a writer's thread, the daemon's actor).
public final class WriteProblemLog: Sendable {
    private let log: any DaemonLog
    private let kind: LogEntryKind?
    private let failed: @Sendable (String) -> String
    private let recovered: String
    private let last = Mutex<String?>(nil)

    /// - Parameters:
    ///   - kind: the entries' kind (its `MESSAGE_ID`), if they have one.
    ///   - failed: the warning for a problem (`cannot keep alert state: …; …`).
    ///   - recovered: the notice once writes work again.
    public init(
        log: any DaemonLog, kind: LogEntryKind? = nil, failed: @escaping @Sendable (String) -> String, recovered: String
    ) {
        self.log = log
        self.kind = kind
        self.failed = failed
        self.recovered = recovered
    }

    /// Notes how the last write went: `problem` (nil: it worked). `same` tells two problems
    /// apart (default: their text; a write through a uniquely named temporary file passes
    /// its step and errno, which repeat where the name does not).
    public func note(_ problem: String?, same: String? = nil) {
        let key = problem.map { same ?? $0 }
        let before = last.withLock { last -> (changed: Bool, problem: String?) in
            defer { last = key }
            return (last != key, last)
        }
        guard before.changed else { return }
        if let problem {
            log.log(.warning, failed(problem), kind: kind)
        } else if before.problem != nil {
            log.log(.notice, recovered, kind: kind)
        }
    }
}
