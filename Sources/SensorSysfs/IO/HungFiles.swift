#if canImport(Glibc)
import Glibc
#endif
import Synchronization
/// The files of one reader whose read blocked and has not returned: they are not opened
/// or read again until it does (SPEC §8), so one wedged driver costs one stuck thread,
/// not one more per poll.
///
/// Each entry keeps the file's identity (device and inode) from when it hung. A file put
/// in its place (the device came back, a test replaced a FIFO) is a new file: at the next
/// discovery (``revalidate()``) the entry goes and the new file is opened afresh.
final class HungFiles: Sendable {
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private let entries = Mutex<[String: Identity?]>([:])

    /// What a sensor whose file is here reads as.
    static let reason = "read blocked for 1s"

    /// Whether `path` is a file whose read blocked and has not returned.
    func contains(_ path: String) -> Bool {
        entries.withLock { $0[path] != nil }
    }

    /// Whether no file is blocked: a batch of a chip's files then asks once, not per file
    /// (a lock and a hash of the path each).
    var isEmpty: Bool {
        entries.withLock { $0.isEmpty }
    }

    /// Records that a read of `path` blocked.
    func add(_ path: String) {
        let identity = Self.identity(of: path)
        entries.withLock { $0[path] = identity }
    }

    /// The blocked read of `path` returned: the file may be opened again.
    func answered(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }

    /// Forgets entries whose path now names another file, or nothing (called at each
    /// discovery; `stat` does not open the file, so it does not block on it).
    func revalidate() {
        let paths = entries.withLock { Array($0.keys) }
        guard !paths.isEmpty else { return }
        let now = paths.map { ($0, Self.identity(of: $0)) }
        entries.withLock { e in
            for (path, identity) in now where e[path] != nil && e[path]! != identity { e[path] = nil }
        }
    }

    private static func identity(of path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }
}
