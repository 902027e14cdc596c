#if canImport(Glibc)
import Glibc
#endif

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
    /// - Parameter now: wall-clock seconds, for the set-aside file's name.
    public func load(now: Double = WallClock.seconds()) -> Loaded {
        let loaded = store.load(now: now)
        return Loaded(
            state: loaded.document ?? NotifyStateFile(),
            problem: store.describe(loaded, as: "notify state file", then: "starting afresh"))
    }

    /// Replaces the file with `state`.
    public func save(_ state: NotifyStateFile) throws(AtomicFileWriter.Failure) {
        try store.save(state)
    }

    private var store: JSONFileStore<NotifyStateFile> { JSONFileStore(path: path) }
}
