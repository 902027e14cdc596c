#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how many sensors it
/// can read: each keeps its file open between polls.
///
/// systemd starts every service with a soft limit of 1024 (kept low only for programs that
/// still use `select(2)`) and a much higher hard limit, and asks programs that need many
/// files to raise the soft limit to the hard one themselves, which ``raise()`` does. The
/// daemon never uses `select(2)`.
package struct OpenFileLimit: Sendable, Hashable {
    /// The limit in force.
    package var soft: UInt64
    /// How far an unprivileged process may raise it.
    package var hard: UInt64

    /// Limits of the given values.
    package init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    /// The limits now.
    package static func current() -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return OpenFileLimit(soft: 0, hard: 0) }
        return OpenFileLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one; returns the limits in force afterwards (the
    /// old ones if the kernel refused, which it does not for an unprivileged raise to hard).
    @discardableResult
    package static func raise() -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return current() }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Self.resource, &limit)
        }
        return current()
    }

    /// The soft limit in words, for a log entry: `256 (also the hard limit)`.
    package var description: String {
        soft >= hard ? "\(soft) (also the hard limit)" : "\(soft) (hard limit \(hard))"
    }

    /// Whether a read failed for want of a file descriptor (this process's, `EMFILE`, or the
    /// whole system's, `ENFILE`): decided by the errno, not by its words.
    package static func isShortage(_ fault: ReadFault) -> Bool {
        fault.errno == EMFILE || fault.errno == ENFILE
    }

    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
