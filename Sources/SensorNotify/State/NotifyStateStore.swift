#if canImport(Glibc)
import Glibc
#endif
public import SensorRuntime

/// Keeps `notify.json` (SPEC §17): written atomically and durably after every delivery (by a
/// ``LatestValueWriter``, off the delivery's path), so a restart, even after `kill -9`,
/// resumes every target after its last delivered event.
///
/// Kept by the one ``JSONFileStore``. A file that cannot be read or decoded is not fatal:
/// it is set aside for a person to look at, and the notifier starts as if it were new
/// (every target at the end of the journal) and says so.
public struct NotifyStateStore: Sendable {
    /// The file name inside the state directory.
    public static let fileName = "notify.json"

    /// The file.
    public let path: String

    /// A store of the file at `path`.
    public init(path: String) { self.path = path }

    /// What loading found: the state, and a problem to log when the file was unusable.
    public struct Loaded: Sendable {
        /// The kept state (empty when none).
        public var state: NotifyStateFile
        /// Why the file was not used, for the log; nil when it was, or was absent.
        public var problem: String?
    }

    /// Reads the file; never throws. An unusable one is set aside
    /// (`notify.json.corrupt-<UTC time>`) and the notifier starts afresh.
    ///
    /// - Parameter now: the time of day, for the set-aside file's name.
    public func load(now: WallTime = SystemWallClock().now) -> Loaded {
        let loaded = store.load(now: now)
        return Loaded(
            state: loaded.document ?? NotifyStateFile(),
            problem: store.describe(loaded, as: "notify state file", then: "starting afresh"))
    }

    /// Replaces the file with `state`.
    public func save(_ state: NotifyStateFile) throws(SystemError) {
        try store.save(state)
    }

    /// The notifier's writer of this file, off the delivery's path: each save on a thread of
    /// its own, a failing one logged once (a unique temporary's name differs each time, so
    /// the step and errno say whether it is the same problem), and once when it works again.
    func writer(log: any DaemonLog) -> LatestValueWriter<NotifyStateFile> {
        let problems = WriteProblemLog(
            log: log, failed: { "cannot keep notification cursors: \($0); a restart may send events again" },
            recovered: "notification cursors are kept again")
        return LatestValueWriter("notification cursors") { state in
            do throws(SystemError) {
                try save(state)
                problems.note(nil)
            } catch {
                problems.note(error.description, same: "\(error.operation.name) \(error.errno)")
            }
        }
    }

    private var store: JSONFileStore<NotifyStateFile> { JSONFileStore(path: path) }
}
