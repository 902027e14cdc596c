#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Synchronization

/// How many sensors are left unread for want of open files, across every source, and one
/// log entry each time that number changes (not one per sensor: each sensor's own fault
/// entry already says `Too many open files`).
///
/// Fed by ``FileShortageReader`` after each poll, from the poll threads, so it locks.
final class FileShortageTally: Sendable {
    private struct Count: Sendable {
        var unread = 0
        var total = 0
    }

    private let log: any DaemonLog
    private let state = Mutex<(counts: [Int: Count], nextKey: Int, reported: Int)>(([:], 0, 0))

    /// - Parameter log: where the entries go (the journal under systemd).
    init(log: any DaemonLog) { self.log = log }

    /// A key of its own for one reader.
    func register() -> Int {
        state.withLock { s in
            defer { s.nextKey += 1 }
            return s.nextKey
        }
    }

    /// The latest poll of the reader `key`: `unread` of its `total` sensors failed for want
    /// of open files.
    func update(_ key: Int, unread: Int, total: Int) {
        let change: (unread: Int, total: Int)? = state.withLock { s in
            s.counts[key] = Count(unread: unread, total: total)
            let sum = s.counts.values.reduce(into: Count()) {
                $0.unread += $1.unread; $0.total += $1.total
            }
            guard sum.unread != s.reported else { return nil }
            s.reported = sum.unread
            return (sum.unread, sum.total)
        }
        guard let change else { return }
        if change.unread > 0 {
            log.log(
                .error,
                "\(change.unread) of \(change.total) sensors are left unread: \(ErrnoText.words(EMFILE)); "
                    + "the open-file limit is \(OpenFileLimit.current().description); raise LimitNOFILE= or read fewer sensors",
                kind: .openFileLimit)
        } else {
            log.log(.notice, "all sensors are read again: enough open files", kind: .openFileLimit)
        }
    }

    /// The reader `key` is gone (a reload replaced it).
    func remove(_ key: Int) {
        state.withLock { _ = $0.counts.removeValue(forKey: key) }
    }
}
