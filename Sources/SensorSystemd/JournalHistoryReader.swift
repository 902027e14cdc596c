import CSystemd
import SensorCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads sensorwatch's alert events back from the journal with the sd-journal API.
///
/// Selects entries by `SYSLOG_IDENTIFIER=sensorwatch` and the alert `MESSAGE_ID`s, and
/// optionally `ALERT_RULE` and `SENSOR_ID` (journal matches: different fields must all
/// match), starting at a wall-clock time; returns them oldest first.
public struct JournalHistoryReader: Sendable {
    /// Which events to read.
    public struct Query: Hashable, Sendable {
        /// Only entries at or after this time, microseconds since the Unix epoch.
        public var sinceMicroseconds: UInt64?
        /// Only this rule's events (exact name).
        public var rule: String?
        /// Only this sensor's events (exact id).
        public var sensor: String?

        public init(sinceMicroseconds: UInt64? = nil, rule: String? = nil, sensor: String? = nil) {
            self.sinceMicroseconds = sinceMicroseconds
            self.rule = rule
            self.sensor = sensor
        }
    }

    /// A failed sd-journal call: which one, and its errno.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The sd-journal function that failed.
        public var call: String
        /// The positive errno it returned.
        public var errno: Int32

        public var description: String { "\(call): \(String(cString: strerror(errno)))" }
    }

    private let directory: String?

    /// - Parameter directory: a journal directory to read instead of the system's journals
    ///   (`sd_journal_open_directory`); nil reads the local machine's journals.
    public init(directory: String? = nil) {
        self.directory = directory
    }

    /// Reads the events `query` selects, oldest first.
    public func read(_ query: Query) throws(ReadError) -> [JournalAlertRecord] {
        var handle: OpaquePointer?
        let opened = directory.map { sd_journal_open_directory(&handle, $0, 0) }
            ?? sd_journal_open(&handle, Int32(SD_JOURNAL_LOCAL_ONLY))
        guard opened >= 0, let j = handle else { throw ReadError(call: "sd_journal_open", errno: -opened) }
        defer { sd_journal_close(j) }

        var matches = ["SYSLOG_IDENTIFIER=" + JournalFields.identifier]
        matches += JournalMessageID.allCases.filter { $0.eventKind != nil }.map { "MESSAGE_ID=" + $0.rawValue }
        if let rule = query.rule { matches.append("ALERT_RULE=" + rule) }
        if let sensor = query.sensor { matches.append("SENSOR_ID=" + sensor) }
        for m in matches {
            let r = m.withCString { sd_journal_add_match(j, $0, 0) }
            guard r >= 0 else { throw ReadError(call: "sd_journal_add_match", errno: -r) }
        }
        let sought = query.sinceMicroseconds.map { sd_journal_seek_realtime_usec(j, $0) } ?? sd_journal_seek_head(j)
        guard sought >= 0 else { throw ReadError(call: "sd_journal_seek", errno: -sought) }

        var records: [JournalAlertRecord] = []
        while true {
            let r = sd_journal_next(j)
            guard r >= 0 else { throw ReadError(call: "sd_journal_next", errno: -r) }
            if r == 0 { break }
            var usec: UInt64 = 0
            guard sd_journal_get_realtime_usec(j, &usec) >= 0 else { continue }
            if let since = query.sinceMicroseconds, usec < since { continue }
            if let record = Self.record(j, at: usec) { records.append(record) }
        }
        return records
    }

    private static func record(_ j: OpaquePointer, at usec: UInt64) -> JournalAlertRecord? {
        guard let state = field(j, "ALERT_STATE").flatMap(EventKind.init(rawValue:)),
            let rule = field(j, "ALERT_RULE")
        else { return nil }
        return JournalAlertRecord(
            realtimeMicroseconds: usec, kind: state, rule: rule,
            severity: field(j, "ALERT_SEVERITY").flatMap(Severity.init(rawValue:)),
            sensor: field(j, "SENSOR_ID") ?? "", label: field(j, "SENSOR_LABEL") ?? "",
            unit: field(j, "SENSOR_UNIT") ?? "", value: field(j, "SENSOR_VALUE").flatMap(Double.init),
            threshold: field(j, "ALERT_THRESHOLD").flatMap(Double.init), message: field(j, "MESSAGE") ?? "",
            condition: field(j, "ALERT_CONDITION").flatMap(ConditionKind.init(rawValue:)),
            predicted: field(j, "ALERT_PREDICTED").flatMap(Double.init))
    }

    /// The value of one field of the current entry, nil when absent or not UTF-8.
    private static func field(_ j: OpaquePointer, _ name: String) -> String? {
        var data: UnsafeRawPointer?
        var length = 0
        guard sd_journal_get_data(j, name, &data, &length) >= 0, let data else { return nil }
        // The data is `NAME=value`, not NUL-terminated, valid until the next call on `j`.
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        let skip = name.utf8.count + 1
        guard length >= skip else { return nil }
        return String(validating: bytes[skip...], as: UTF8.self)
    }
}
