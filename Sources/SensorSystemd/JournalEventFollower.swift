import CSystemd
import Glibc
public import SensorConfig
import SensorCore
public import SensorNotify
public import SensorRuntime

#if canImport(Glibc)
#endif

/// Follows one journal (the local one, or a directory of journal files such as
/// `systemd-journal-remote` writes) for sensorwatch's alert entries, for one lane of
/// `sensorwatch notify` (SPEC §17). Entries the daemon did not write (``JournalTrust``)
/// come out without an event, so no lane delivers them.
///
/// It waits the way `sd_journal_wait` does — the handle's inotify descriptor
/// (`sd_journal_get_fd`), then `sd_journal_process` — but through a ``DescriptorWaiter``
/// instead of in a thread of its own blocked in the call, so a stop or a reload interrupts
/// the wait at once (see docs/decisions.md). The handle is used only on the daemon actor.
@DaemonActor
public final class JournalEventFollower: NotifyEventSource {
    private let journal: OpaquePointer
    private let fd: Int32
    private let path: String?
    private let waiter: DescriptorWaiter
    private var trust: JournalTrustCheck
    private let lookAlike: @DaemonActor (_ cursor: String, _ reason: String) -> Void
    /// An entry found while positioning that has not been returned yet.
    private var pending = false

    /// Opens `source` and positions after `cursor` (an entry of any kind), or, without one
    /// (a new target), at the end of the journal as it is now; the empty cursor is the
    /// journal's start.
    ///   - waiter: what waits for the journal's descriptor.
    ///   - trust: whose entries are the daemon's; the others are returned without an event.
    ///   - lookAlike: told of each entry skipped for its trusted fields, and why.
    public init(
        source: JournalHistoryReader.Source, after cursor: String?, waiter: DescriptorWaiter,
        trust: JournalTrust = .daemon,
        lookAlike: @escaping @DaemonActor (_ cursor: String, _ reason: String) -> Void = { _, _ in }
    ) throws(SystemError) {
        path = source.path
        self.waiter = waiter
        self.trust = JournalTrustCheck(trust: trust, source: source)
        self.lookAlike = lookAlike
        var handle: OpaquePointer?
        let r: Int32
        let call: String
        switch source {
        case .local, .file:
            (call, r) = ("sd_journal_open", sd_journal_open(&handle, Int32(SD_JOURNAL_LOCAL_ONLY)))
        case .directory(let directory):
            (call, r) = ("sd_journal_open_directory", sd_journal_open_directory(&handle, directory, 0))
        }
        guard r >= 0, let j = handle else {
            throw SystemError(.call(call), path: source.path, errno: -r)
        }
        journal = j
        func fail(_ call: String, _ r: Int32) -> SystemError {
            sd_journal_close(j)
            return SystemError(.call(call), path: source.path, errno: -r)
        }
        // Asked first, as sd-journal(3) advises, so that no change after the open is missed.
        let fd = sd_journal_get_fd(j)
        guard fd >= 0 else { throw fail("sd_journal_get_fd", fd) }
        self.fd = fd
        // A new target starts after the journal's last entry of any kind: positioned before
        // the matches are added, since a tail seek under matches that nothing meets yet
        // leaves no entry to stand on (and, seen with systemd 252, no later entry found).
        var start = cursor
        if start == nil {
            let r = sd_journal_seek_tail(j)
            guard r >= 0 else { throw fail("sd_journal_seek_tail", r) }
            if sd_journal_previous(j) > 0 { start = JournalEventFollower.cursor(of: j) }
        }
        position = start ?? ""
        for m in JournalEventFollower.matches {
            let r = m.withCString { sd_journal_add_match(j, $0, 0) }
            guard r >= 0 else { throw fail("sd_journal_add_match", r) }
        }
        if let start, !start.isEmpty {
            let r = sd_journal_seek_cursor(j, start)
            guard r >= 0 else { throw fail("sd_journal_seek_cursor", r) }
            // The seek lands on the cursor's entry if it still exists and is an alert entry,
            // else on the next alert entry, which has not been delivered and so comes first.
            if sd_journal_next(j) > 0 {
                pending = sd_journal_test_cursor(j, start) <= 0
            }
        } else {
            // An empty journal (a new collector directory): every entry to come is new.
            let r = sd_journal_seek_head(j)
            guard r >= 0 else { throw fail("sd_journal_seek_head", r) }
        }
    }

    isolated deinit {
        sd_journal_close(journal)
    }

    /// The entries a lane reads: sensorwatch's, with an alert event's MESSAGE_ID or the
    /// silences' (SPEC §21).
    static let matches: [String] =
        ["SYSLOG_IDENTIFIER=" + JournalFields.identifier]
        + JournalMessageID.allCases.filter { $0.eventKind != nil }.map { "MESSAGE_ID=" + $0.rawValue }
        + [JournalSilenceEntry.match]

    /// Where the follower was positioned: the cursor it was given, else that of the
    /// journal's last entry then; empty for a journal that had none.
    public let position: String?

    /// The cursor of the entry `j` is on.
    nonisolated static func cursor(of j: OpaquePointer) -> String? {
        var c: UnsafeMutablePointer<CChar>?
        guard sd_journal_get_cursor(j, &c) >= 0, let c else { return nil }
        defer { free(c) }
        return String(cString: c)
    }

    /// The next alert or silence entry after the current position, waiting for one; throws on a failed sd-journal call or when the task is cancelled.
    public func next() async throws -> NotifyEntry {
        while true {
            try Task.checkCancellation()
            if pending {
                pending = false
                if let entry = entry() { return entry }
            }
            // Taken before looking, so a nudge that comes before the wait still ends it.
            let nudges = waiter.nudges
            let r = sd_journal_next(journal)
            if r < 0 { throw SystemError(.call("sd_journal_next"), path: path, errno: -r) }
            if r > 0 {
                if let entry = entry() { return entry }
                continue
            }
            // The daemon's wake nudges the wait (NotifyWakeSocket): sd_journal_next then
            // sees an entry journald has written though it has not told its readers yet,
            // since the reader maps the same file and checks its size again when an entry
            // lies beyond what it knew.
            try await waiter.readable(fd, nudgedAfter: nudges)
            // Reads the inotify events: new entries, new or rotated files.
            let p = sd_journal_process(journal)
            if p < 0 { throw SystemError(.call("sd_journal_process"), path: path, errno: -p) }
        }
    }

    /// The current entry as an event with its cursor; nil without a cursor. An entry the
    /// daemon did not write (``JournalTrust``), or that is not an alert as the daemon writes
    /// them (``JournalEntryDecoder``), has no event.
    private func entry() -> NotifyEntry? {
        guard let cursor = JournalEventFollower.cursor(of: journal) else { return nil }
        var usec: UInt64 = 0
        _ = sd_journal_get_realtime_usec(journal, &usec)
        let entry = JournalEventFollower.wanted.read(journal)
        if entry["MESSAGE_ID"] == JournalMessageID.silence.rawValue {
            // An untrusted or unreadable silence is skipped like a damaged alert entry.
            guard case .silence(let silence, _) = JournalSilenceEntry.read(journal, trust: &trust) else {
                return NotifyEntry(event: nil, cursor: cursor)
            }
            return NotifyEntry(event: nil, cursor: cursor, silence: silence)
        }
        guard let record = try? JournalEntryDecoder.alert(entry, realtimeMicroseconds: usec) else {
            return NotifyEntry(event: nil, cursor: cursor)
        }
        if case .lookAlike(let reason) = trust.verdict(entry, cursor: cursor) {
            lookAlike(cursor, reason)
            return NotifyEntry(event: nil, cursor: cursor)
        }
        return NotifyEntry(event: record.notifyEvent, cursor: cursor)
    }

    private static let wanted = JournalEntryFields(JournalEntryDecoder.alertFieldNames)
}
