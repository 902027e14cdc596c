#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorRuntime

/// How many sensors are left unread for want of open files, across every source, and one
/// log entry each time that number changes (not one per sensor: each sensor's own fault
/// entry already says `Too many open files`).
///
/// The supervisor feeds it each source's latest poll as it commits it, on the daemon's
/// actor, so it needs no lock; while no source is short of files (almost always), a
/// delivery costs it one look at an empty table.
struct FileShortageTally {
    private let log: any DaemonLog
    /// The sources that left sensors unread at their latest poll, and how many.
    private var unread: [String: Int] = [:]
    /// The number the last entry said.
    private var reported = 0

    /// - Parameter log: where the entries go (the journal under systemd).
    init(log: any DaemonLog) { self.log = log }

    /// The latest poll of `source`: `unread` of its sensors failed for want of open files.
    /// `total` (every running source's sensors) is asked only when an entry is written.
    mutating func update(_ source: String, unread count: Int, total: () -> Int) {
        if count == 0 {
            guard !unread.isEmpty, unread.removeValue(forKey: source) != nil else { return }
        } else {
            guard unread.updateValue(count, forKey: source) != count else { return }
        }
        report(total: total)
    }

    /// `source` stopped (a reload replaced or removed it, or the daemon stops): its sensors
    /// no longer count from the next poll of another source on. Nothing is said now, so a
    /// stop does not announce that all sensors are read again.
    mutating func remove(_ source: String) {
        if !unread.isEmpty { unread.removeValue(forKey: source) }
    }

    private mutating func report(total: () -> Int) {
        let sum = unread.values.reduce(0, +)
        guard sum != reported else { return }
        reported = sum
        if sum > 0 {
            log.log(
                .error,
                "\(sum) of \(total()) sensors are left unread: \(ErrnoText.words(EMFILE)); "
                    + "the open-file limit is \(OpenFileLimit.current().description); raise LimitNOFILE= or read fewer sensors",
                kind: .openFileLimit)
        } else {
            log.log(.notice, "all sensors are read again: enough open files", kind: .openFileLimit)
        }
    }
}
