#if canImport(Glibc)
import Glibc
#endif

/// Keeps `notify.json` (SPEC §17): written atomically and durably after every delivery (by a
/// ``LatestValueWriter``, off the delivery's path), so a restart, even after `kill -9`,
/// resumes every target after its last delivered event.
///
/// A file that cannot be read or decoded is not fatal: the notifier starts as if it were
/// new (every target at the end of the journal) and says so; the bad file is left for a
/// person to look at until the first save replaces it.
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

    /// Reads the file; never throws.
    public func load() -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            return Loaded(state: NotifyStateFile(), problem: err == ENOENT ? nil : "\(path): cannot read: \(ErrnoText.words(err))")
        }
        defer { close(fd) }
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(fd)
        } catch {
            return Loaded(state: NotifyStateFile(), problem: "\(path): cannot read: \(ErrnoText.words(error.errno))")
        }
        do {
            let file = try NotifyStateFile.decode(bytes, path: path)
            guard file.version == NotifyStateFile.currentVersion else {
                return Loaded(state: NotifyStateFile(), problem: "\(path): unknown format version \(file.version); starting afresh")
            }
            return Loaded(state: file, problem: nil)
        } catch {
            let why = error.errors.first?.locatedMessage ?? "unreadable"
            return Loaded(state: NotifyStateFile(), problem: "\(path): not a valid notify state file (\(why)); starting afresh")
        }
    }

    /// Replaces the file with `state`.
    public func save(_ state: NotifyStateFile) throws(AtomicFileWriter.Failure) {
        let text = JSONWriter.text(state.json, layout: .pretty) + "\n"
        try AtomicFileWriter(
            path: path,
            options: AtomicFileWriter.Options(mode: .umasked(0o644), durable: true, createsDirectory: true)
        ).write(Array(text.utf8))
    }
}
