import SensorCore
import SensorRuntime
import SensorSystemd

/// Formats silences for `silence list` and `history`: readable lines and JSON.
enum SilenceFormatter {
    /// A header and one line per silence, columns aligned: id, matchers, start, end (local
    /// time via `time`), who, comment; text from the journal with control characters escaped.
    static func table(_ silences: [Silence], time: (UInt64) -> String) -> [String] {
        let header = ["ID", "MATCHERS", "STARTS", "ENDS", "BY", "COMMENT"]
        let rows = silences.map { s in
            [s.id, s.matchers, time(s.startsMicroseconds), time(s.endsMicroseconds), s.by, s.comment]
                .map(DisplayText.escaped)
        }
        let all = [header] + rows
        let widths = (0..<header.count).map { c in all.map { DisplayWidth.cells($0[c]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { c, text in c == row.count - 1 ? text : DisplayWidth.padded(text, to: widths[c]) }
                .joined(separator: "  ").trimmingSpaces()
        }
    }

    /// One JSON object: `id`, `rule`, `sensor`, `host` (null when left out: any), `starts`,
    /// `ends` (RFC 3339, UTC), `by`, `comment`, `state` (`active` or `expired`).
    static func json(_ s: Silence) -> String { JSONWriter.text(value(s)) }

    /// The silence as a JSON value, for ``json(_:)`` and the `history` line that holds one.
    static func value(_ s: Silence) -> JSONValue {
        .object(
            JSONObject([
                .string("id", s.id), .optionalString("rule", s.rule?.pattern),
                .optionalString("sensor", s.sensor?.pattern), .optionalString("host", s.host?.pattern),
                .string("starts", RFC3339.format(microseconds: s.startsMicroseconds)),
                .string("ends", RFC3339.format(microseconds: s.endsMicroseconds)), .string("by", s.by),
                .string("comment", s.comment), .string("state", s.expired ? "expired" : "active"),
            ]))
    }

    /// The JSON array `silence list --json` prints (always valid JSON, `[]` for none).
    static func jsonArray(_ silences: [Silence]) -> String { JSONWriter.text(.array(silences.map(value))) }
}
