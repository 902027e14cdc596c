import Glibc
import SensorCore
import SensorRuntime
import SensorSystemd

#if canImport(Glibc)
#endif

/// Formats alert records read back from the journal for `history`: one readable line or
/// one JSON object per event.
enum HistoryFormatter {
    /// One readable line per record, the host column as wide as the longest host name, so
    /// the columns after it line up; `time` formats a record's realtime timestamp.
    static func lines(_ records: [JournalAlertRecord], time: (UInt64) -> String) -> [String] {
        lines(records, silences: [], time: time)
    }

    /// The events and silence entries (SPEC §21) as one time order, readable lines.
    static func lines(
        _ records: [JournalAlertRecord], silences: [JournalSilenceReader.Record], time: (UInt64) -> String
    ) -> [String] {
        let width =
            (records.map { DisplayWidth.cells(host($0)) } + silences.map { DisplayWidth.cells(hostName($0.host)) })
            .max() ?? 0
        return merged(records, silences) {
            line($0, time: time($0.realtimeMicroseconds), hostWidth: width)
        } silence: {
            silenceLine($0, time: time($0.realtimeMicroseconds), hostWidth: width)
        }
    }

    /// The events and silence entries as one time order, one JSON object each.
    static func jsonLines(_ records: [JournalAlertRecord], silences: [JournalSilenceReader.Record]) -> [String] {
        merged(records, silences, event: json, silence: silenceJSON)
    }

    /// The texts of events and silence entries, oldest first; at one instant, events first.
    private static func merged(
        _ records: [JournalAlertRecord], _ silences: [JournalSilenceReader.Record],
        event: (JournalAlertRecord) -> String, silence: (JournalSilenceReader.Record) -> String
    ) -> [String] {
        let all =
            records.map { ($0.realtimeMicroseconds, 0, event($0)) }
            + silences.map { ($0.realtimeMicroseconds, 1, silence($0)) }
        return all.enumerated().sorted { a, b in
            (a.element.0, a.element.1, a.offset) < (b.element.0, b.element.1, b.offset)
        }.map(\.element.2)
    }

    /// `2026-11-29 10:00:01 web1 silence 6f0c… rule=fan-* sensor=* host=* by alice until
    /// 2026-11-29 12:00:01: fan swap` (or `expired by bob`), control characters escaped.
    static func silenceLine(_ r: JournalSilenceReader.Record, time: String, hostWidth: Int = 0) -> String {
        let s = r.silence
        var line = "\(time) \(DisplayWidth.padded(hostName(r.host), to: hostWidth)) silence \(s.id) \(s.matchers) "
        line += s.expired ? "expired by \(s.by)" : "by \(s.by) until \(localTime(s.endsMicroseconds))"
        if !s.comment.isEmpty { line += ": " + s.comment }
        return DisplayText.escaped(line)
    }

    /// `{"time":…,"host":…,"event":"silence","silence":{…}}`, the silence as `silence list
    /// --json` prints it.
    static func silenceJSON(_ r: JournalSilenceReader.Record) -> String {
        JSONWriter.text(
            .object(
                JSONObject([
                    .string("time", utc(r.realtimeMicroseconds)), .string("host", r.host), .string("event", "silence"),
                    JSONObject.Member(key: "silence", value: SilenceFormatter.value(r.silence)),
                ])))
    }

    /// `2026-11-29 10:00:01 web1 cpu-hot firing sim:cpu (CPU) 85 °C threshold 80 °C [warning]`,
    /// with `time` already formatted (local time in the command, fixed text in tests) and the
    /// host (`-` when the entry has none) padded to `hostWidth`; a predict rule's event adds
    /// `predicted 93.2 °C` after the threshold when it had a line. One line whatever the
    /// journal's fields hold (anyone may have written them): each shown with ``DisplayText``'s escapes.
    static func line(_ r: JournalAlertRecord, time: String, hostWidth: Int = 0) -> String {
        var s = "\(time) \(DisplayWidth.padded(host(r), to: hostWidth)) \(r.rule) \(r.kind.rawValue) \(r.sensor)"
        if !r.label.isEmpty { s += " (\(r.label))" }
        s += " " + (r.value.map { withUnit(NumberText.display($0), r.unit) } ?? "-")
        if let threshold = r.usedThreshold {
            s += " threshold " + threshold.text(unit: r.unit)
        } else if let threshold = r.threshold {
            // An entry without ALERT_CONDITION (hand-written or very old): the number as it is.
            s += " threshold " + withUnit(NumberText.display(threshold), r.unit) + (r.limit.map { " (\($0))" } ?? "")
        }
        if let predicted = r.predicted { s += " predicted " + withUnit(NumberText.display(predicted), r.unit) }
        if let severity = r.severity { s += " [\(severity.rawValue)]" }
        return DisplayText.escaped(s)
    }

    /// One JSON object: `time` (UTC, ISO 8601 with microseconds), `host` (`_HOSTNAME`, empty
    /// when absent), `event`, `rule`, `sensor`, `label`, `severity`, `value`, `threshold`, for
    /// a predict rule `predicted` (a number or null), then `unit`.
    static func json(_ r: JournalAlertRecord) -> String {
        var members: [JSONObject.Member] = [
            .string("time", utc(r.realtimeMicroseconds)), .string("host", r.host), .string("event", r.kind.rawValue),
            .string("rule", r.rule), .string("sensor", r.sensor), .string("label", r.label),
            .optionalString("severity", r.severity?.rawValue), .number("value", r.value),
            .number("threshold", r.threshold),
        ]
        if r.condition == .predict { members.append(.number("predicted", r.predicted)) }
        if let limit = r.limit { members.append(.string("limit", limit)) }
        members.append(.string("unit", r.unit))
        return JSONWriter.text(.object(JSONObject(members)))
    }

    /// `2026-11-29 10:00:01` in the local time zone.
    static func localTime(_ usec: UInt64) -> String {
        format(usec, "%Y-%m-%d %H:%M:%S", local: true)
    }

    /// `2026-11-29T10:00:01.123456Z`.
    static func utc(_ usec: UInt64) -> String { RFC3339.format(microseconds: usec, wholeFraction: true) }

    /// The host a readable line shows: `-` for an entry without `_HOSTNAME`.
    private static func host(_ r: JournalAlertRecord) -> String { hostName(r.host) }

    private static func hostName(_ host: String) -> String { host.isEmpty ? "-" : DisplayText.escaped(host) }

    private static func withUnit(_ number: String, _ unit: String) -> String {
        unit.isEmpty ? number : number + " " + unit
    }

    private static func format(_ usec: UInt64, _ pattern: String, local: Bool) -> String {
        TimeText.format(Double(usec / 1_000_000), pattern, local: local)
    }
}
