public import SensorCore
import SensorRuntime

/// The inverse of ``JournalFields``: an entry's fields, by name, read back into what
/// sensorwatch wrote (an alert event as a ``JournalAlertRecord``, a silence as a
/// ``Silence``), for every reader of entries: `notify`'s lanes, `history`, `silence list`
/// and `status`.
///
/// Any user can write an entry with sensorwatch's fields, and the trust list may name other
/// writers, so every value is checked: a field the entry cannot do without that is missing, a
/// number that is not one or is too large to mean anything (a window of 1e300 s has no
/// `Int64` when it is shown), an unknown state, is a ``JournalEntryError`` naming the field,
/// never a crash further on. Fields older entries lack are nil or empty instead.
public enum JournalEntryDecoder {
    /// The fields an alert is read from, with the trusted ones that say who wrote it.
    public static let alertFieldNames =
        [
            "MESSAGE", "MESSAGE_ID", "ALERT_RULE", "ALERT_STATE", "ALERT_SEVERITY", "ALERT_CONDITION",
            "ALERT_THRESHOLD",
            "ALERT_LIMIT", "ALERT_WITHIN", "ALERT_ALARM", "ALERT_REASON", "ALERT_PREDICTED", "ALERT_SUMMARY",
            "ALERT_DESCRIPTION", "ALERT_RUNBOOK", "SENSOR_ID", "SENSOR_LABEL", "SENSOR_QUANTITY", "SENSOR_UNIT",
            "SENSOR_VALUE",
        ] + trustedFieldNames

    /// The fields a silence is read from, with the trusted ones that say who wrote it.
    public static let silenceFieldNames =
        [
            "SILENCE_ID", "SILENCE_STATE", "SILENCE_RULE", "SILENCE_SENSOR", "SILENCE_HOST", "SILENCE_STARTS",
            "SILENCE_ENDS", "SILENCE_COMMENT", "SILENCE_BY",
        ] + trustedFieldNames

    /// The fields journald sets itself (``JournalTrust``): the writer's unit, uid and host.
    static let trustedFieldNames = ["_SYSTEMD_UNIT", "_UID", "_HOSTNAME"]

    /// The largest magnitude of a number read back: beyond any reading, threshold or window
    /// (seconds), and within what every formatter turns into an `Int64`.
    public static let largestNumber = 1e15

    /// The alert event of an entry written at `realtimeMicroseconds`.
    ///
    /// `ALERT_STATE` and `ALERT_RULE` are required; a severity or condition this version
    /// does not know is nil, as for an entry without one (a newer writer's word).
    public static func alert(
        _ entry: [String: String], realtimeMicroseconds: UInt64
    ) throws(JournalEntryError) -> JournalAlertRecord {
        let stateText = try required(entry, "ALERT_STATE")
        guard let kind = EventKind(rawValue: stateText) else {
            throw JournalEntryError(field: "ALERT_STATE", value: stateText, problem: .unknownValue)
        }
        var record = JournalAlertRecord(
            realtimeMicroseconds: realtimeMicroseconds, host: entry["_HOSTNAME"] ?? "", kind: kind,
            rule: try required(entry, "ALERT_RULE"),
            severity: entry["ALERT_SEVERITY"].flatMap(Severity.init(rawValue:)),
            sensor: entry["SENSOR_ID"] ?? "", label: entry["SENSOR_LABEL"] ?? "", unit: entry["SENSOR_UNIT"] ?? "",
            value: try number(entry, "SENSOR_VALUE"), threshold: try number(entry, "ALERT_THRESHOLD"),
            message: entry["MESSAGE"] ?? "",
            condition: entry["ALERT_CONDITION"].flatMap(ConditionKind.init(rawValue:)),
            predicted: try number(entry, "ALERT_PREDICTED"), limit: entry["ALERT_LIMIT"],
            within: try number(entry, "ALERT_WITHIN", atLeast: 0))
        record.quantity = entry["SENSOR_QUANTITY"] ?? ""
        record.hardwareAlarm = try flag(entry, "ALERT_ALARM", "1")
        record.sensorGone = try flag(entry, "ALERT_REASON", "gone")
        record.annotations = RuleAnnotations(
            summary: entry["ALERT_SUMMARY"], description: entry["ALERT_DESCRIPTION"], runbook: entry["ALERT_RUNBOOK"])
        return record
    }

    /// The silence of an entry: `SILENCE_ID`, `SILENCE_STARTS` and `SILENCE_ENDS` required;
    /// a matcher left out matches everything.
    public static func silence(_ entry: [String: String]) throws(JournalEntryError) -> Silence {
        let id = try required(entry, "SILENCE_ID")
        let state = entry["SILENCE_STATE"]
        guard state == nil || state == "active" || state == "expired" else {
            throw JournalEntryError(field: "SILENCE_STATE", value: state, problem: .unknownValue)
        }
        return Silence(
            id: id, rule: try glob(entry, "SILENCE_RULE"), sensor: try glob(entry, "SILENCE_SENSOR"),
            host: try glob(entry, "SILENCE_HOST"), startsMicroseconds: try time(entry, "SILENCE_STARTS"),
            endsMicroseconds: try time(entry, "SILENCE_ENDS"), comment: entry["SILENCE_COMMENT"] ?? "",
            by: entry["SILENCE_BY"] ?? "", expired: state == "expired")
    }

    /// `NAME=value` strings, as ``JournalFields`` makes them, by name; the first of a name
    /// counts, as when reading an entry (``JournalEntryFields``).
    public static func fields(_ list: [String]) -> [String: String] {
        var entry: [String: String] = [:]
        for field in list {
            guard let eq = field.firstIndex(of: "=") else { continue }
            let name = String(field[..<eq])
            if entry[name] == nil { entry[name] = String(field[field.index(after: eq)...]) }
        }
        return entry
    }

    private static func required(_ entry: [String: String], _ name: String) throws(JournalEntryError) -> String {
        guard let value = entry[name], !value.isEmpty else {
            throw JournalEntryError(field: name, value: entry[name], problem: .missing)
        }
        return value
    }

    /// A number as ``EventFormatter/number(_:)`` wrote it; nil when absent.
    private static func number(
        _ entry: [String: String], _ name: String, atLeast least: Double = -largestNumber
    ) throws(JournalEntryError) -> Double? {
        guard let text = entry[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw JournalEntryError(field: name, value: text, problem: .notANumber)
        }
        guard value >= least, value <= largestNumber else {
            throw JournalEntryError(field: name, value: text, problem: .outOfRange)
        }
        return value
    }

    /// Whether a field that is either absent or `word` is present.
    private static func flag(
        _ entry: [String: String], _ name: String, _ word: String
    ) throws(JournalEntryError) -> Bool {
        guard let text = entry[name] else { return false }
        guard text == word else { throw JournalEntryError(field: name, value: text, problem: .unknownValue) }
        return true
    }

    /// An RFC 3339 time as microseconds since the Unix epoch.
    private static func time(_ entry: [String: String], _ name: String) throws(JournalEntryError) -> UInt64 {
        let text = try required(entry, name)
        // 1e11 s is the year 5138: far beyond any silence, well within UInt64 microseconds.
        guard let seconds = RFC3339.parse(text), seconds >= 0, seconds < 1e11 else {
            throw JournalEntryError(field: name, value: text, problem: .notATime)
        }
        return UInt64((seconds * 1e6).rounded())
    }

    /// A matcher; nil when absent (it matches everything).
    private static func glob(_ entry: [String: String], _ name: String) throws(JournalEntryError) -> Glob? {
        guard let text = entry[name] else { return nil }
        do {
            return try Glob(text)
        } catch {
            throw JournalEntryError(field: name, value: text, problem: .notAGlob("\(error)"))
        }
    }
}
