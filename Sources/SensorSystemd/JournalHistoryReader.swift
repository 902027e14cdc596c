import CSystemd
import Glibc
public import SensorConfig
import SensorCore
public import SensorRuntime
#if canImport(Glibc)
#endif

/// Reads sensorwatch's alert events back from the journal with the sd-journal API.
///
/// Selects entries by `SYSLOG_IDENTIFIER=sensorwatch` and the alert `MESSAGE_ID`s, and
/// optionally `ALERT_RULE`, `SENSOR_ID` and `_HOSTNAME` (journal matches: different fields
/// must all match); returns them oldest first by each entry's realtime timestamp. Of those,
/// only the entries the daemon wrote (``JournalTrust``) are events: the others are skipped.
///
/// The reader sorts rather than trusting the journal's order, and filters by time rather
/// than seeking: a file written by `systemd-journal-remote` holds entries in arrival order
/// (all hosts behind one address share a file), so its order is not time order and a time
/// seek in it lands in the wrong place, leaving out entries that belong (SPEC §13).
public struct JournalHistoryReader: Sendable {
    /// Which events to read.
    public struct Query: Hashable, Sendable {
        /// Only entries at or after this time, microseconds since the Unix epoch.
        public var sinceMicroseconds: UInt64?
        /// Only entries at or before this time, microseconds since the Unix epoch.
        public var untilMicroseconds: UInt64?
        /// Only this rule's events (exact name).
        public var rule: String?
        /// Only this sensor's events (exact id).
        public var sensor: String?
        /// Only this host's events (exact `_HOSTNAME`).
        public var host: String?

        /// A query of the given filters; one left nil does not filter.
        public init(
            sinceMicroseconds: UInt64? = nil, untilMicroseconds: UInt64? = nil, rule: String? = nil,
            sensor: String? = nil, host: String? = nil
        ) {
            self.sinceMicroseconds = sinceMicroseconds
            self.untilMicroseconds = untilMicroseconds
            self.rule = rule
            self.sensor = sensor
            self.host = host
        }
    }

    /// A journal to read.
    public enum Source: Hashable, Sendable {
        /// The local machine's journals (`sd_journal_open` with `SD_JOURNAL_LOCAL_ONLY`).
        case local
        /// The journal files in a directory (`sd_journal_open_directory`), e.g. what
        /// `systemd-journal-remote` writes under `/var/log/journal/remote`.
        case directory(String)
        /// One journal file (`sd_journal_open_files`).
        case file(String)

        /// The directory or file, nil for the local journal.
        public var path: String? {
            switch self {
            case .local: return nil
            case .directory(let path), .file(let path): return path
            }
        }
    }

    private let sources: [Source]
    private let trust: JournalTrust

    /// - Parameters:
    ///   - sources: the journals to read, entries of all merged into one time order (a
    ///     source named twice is read once); none reads the local machine's journals.
    ///   - trust: whose entries are the daemon's.
    public init(sources: [Source] = [], trust: JournalTrust = .daemon) {
        var seen: Set<Source> = []
        let unique = sources.filter { seen.insert($0).inserted }
        self.sources = unique.isEmpty ? [.local] : unique
        self.trust = trust
    }

    /// Reads the events `query` selects, oldest first (entries with one timestamp keep the
    /// order they were read in), each event once; `lookAlike` is told why of each entry
    /// skipped for its trusted fields.
    public func read(
        _ query: Query, lookAlike: (_ reason: String) -> Void = { _ in }
    ) throws(SystemError) -> [JournalAlertRecord] {
        var records: [JournalAlertRecord] = []
        for source in sources {
            var check = JournalTrustCheck(trust: trust, source: source)
            try Self.read(query, from: source, into: &records, trust: &check, lookAlike: lookAlike)
        }
        return Self.oldestFirst(records)
    }

    /// `records` sorted by realtime timestamp, ties in their order, without copies: a record
    /// equal in every field (to the microsecond) to an earlier one is the same event sent
    /// twice (an upload repeated after its state file was lost, two directories holding one
    /// copy each), not a second event.
    static func oldestFirst(_ records: [JournalAlertRecord]) -> [JournalAlertRecord] {
        // The standard library's sort is stable: ties keep their read order.
        let sorted = records.sorted { $0.realtimeMicroseconds < $1.realtimeMicroseconds }
        var out: [JournalAlertRecord] = []
        out.reserveCapacity(sorted.count)
        var sameInstant: Set<JournalAlertRecord> = []
        for r in sorted {
            if r.realtimeMicroseconds != out.last?.realtimeMicroseconds { sameInstant.removeAll(keepingCapacity: true) }
            if sameInstant.insert(r).inserted { out.append(r) }
        }
        return out
    }

    /// Opens one source: the handle, or the error naming the call and the path.
    static func open(_ source: Source) throws(SystemError) -> OpaquePointer {
        var handle: OpaquePointer?
        let (call, r): (String, Int32)
        switch source {
        case .local:
            (call, r) = ("sd_journal_open", sd_journal_open(&handle, Int32(SD_JOURNAL_LOCAL_ONLY)))
        case .directory(let directory):
            (call, r) = ("sd_journal_open_directory", sd_journal_open_directory(&handle, directory, 0))
        case .file(let file):
            call = "sd_journal_open_files"
            r = file.withCString { name in
                var paths: [UnsafePointer<CChar>?] = [name, nil]
                return sd_journal_open_files(&handle, &paths, 0)
            }
        }
        guard r >= 0, let j = handle else { throw SystemError(.call(call), path: source.path, errno: -r) }
        return j
    }

    /// Appends the events `query` selects in one source.
    private static func read(
        _ query: Query, from source: Source, into records: inout [JournalAlertRecord],
        trust: inout JournalTrustCheck, lookAlike: (String) -> Void
    ) throws(SystemError) {
        var matches = JournalMessageID.allCases.filter { $0.eventKind != nil }.map { "MESSAGE_ID=" + $0.rawValue }
        if let rule = query.rule { matches.append("ALERT_RULE=" + rule) }
        if let sensor = query.sensor { matches.append("SENSOR_ID=" + sensor) }
        if let host = query.host { matches.append("_HOSTNAME=" + host) }
        try entries(of: source, matching: matches) { j, usec in
            if let since = query.sinceMicroseconds, usec < since { return }
            if let until = query.untilMicroseconds, usec > until { return }
            if let record = record(j, at: usec, trust: &trust, lookAlike: lookAlike) { records.append(record) }
        }
    }

    /// Calls `body` with the handle and the realtime timestamp of each sensorwatch entry of
    /// `source` that meets `matches` (journal matches: different fields must all match), from
    /// the head on.
    static func entries(
        of source: Source, matching matches: [String], _ body: (OpaquePointer, UInt64) -> Void
    ) throws(SystemError) {
        let j = try open(source)
        defer { sd_journal_close(j) }
        func failure(_ call: String, _ r: Int32) -> SystemError {
            SystemError(.call(call), path: source.path, errno: -r)
        }
        for m in ["SYSLOG_IDENTIFIER=" + JournalFields.identifier] + matches {
            let r = m.withCString { sd_journal_add_match(j, $0, 0) }
            guard r >= 0 else { throw failure("sd_journal_add_match", r) }
        }
        let sought = sd_journal_seek_head(j)
        guard sought >= 0 else { throw failure("sd_journal_seek_head", sought) }
        while true {
            let r = sd_journal_next(j)
            guard r >= 0 else { throw failure("sd_journal_next", r) }
            if r == 0 { break }
            var usec: UInt64 = 0
            guard sd_journal_get_realtime_usec(j, &usec) >= 0 else { continue }
            body(j, usec)
        }
    }

    private static let wanted = JournalEntryFields(JournalEntryDecoder.alertFieldNames)

    /// The current entry as a record; nil when it is not a readable event or the daemon did
    /// not write it.
    private static func record(
        _ j: OpaquePointer, at usec: UInt64, trust: inout JournalTrustCheck, lookAlike: (String) -> Void
    ) -> JournalAlertRecord? {
        let entry = wanted.read(j)
        guard let record = try? JournalEntryDecoder.alert(entry, realtimeMicroseconds: usec) else { return nil }
        let cursor = trust.needsCursor ? JournalEventFollower.cursor(of: j) : nil
        if case .lookAlike(let reason) = trust.verdict(entry, cursor: cursor) {
            lookAlike(reason)
            return nil
        }
        return record
    }
}
