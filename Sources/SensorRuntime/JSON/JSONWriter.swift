/// Writes JSON text: the one JSON writer of sensorwatch, for files (`state.json`,
/// `notify.json`) and outputs alike.
///
/// Numbers are written as ``NumberText/number(_:)`` writes them (`80`, `81.5`, the
/// shortest text that reads back as the same `Double`); JSON has no `NaN` or `Infinity`, so a
/// number that is not finite is written as `null`.
public enum JSONWriter {
    /// How the text is laid out.
    package enum Layout: Equatable {
        /// All on one line.
        case compact
        /// Each member and element on a line of its own, indented by two spaces, as
        /// `"key" : value` (as Foundation's pretty printing has it).
        case pretty
        /// Compact, but each member or element that is an object or an array, down to
        /// nesting `depth` (the document's own members are at 1), starts a line: one record
        /// a line, which `cat` shows and `jq` reads (`status.json`).
        case records(depth: Int)
    }

    /// `value` as JSON text without a trailing newline.
    package static func text(_ value: JSONValue, layout: Layout = .compact) -> String {
        var out = ""
        write(value, layout: layout, depth: 0, indent: "", to: &out)
        return out
    }

    /// A JSON string literal with the escapes JSON requires, and the other characters
    /// ``DisplayText`` escapes (DEL, C1 controls, line separators, bidi controls) as `\u007f`,
    /// so the output shown on a terminal carries no control character either (SPEC §19).
    public static func string(_ s: String) -> String {
        // Most strings (ids, labels, units, limit names) need no escape: one scan of the
        // bytes and one concatenation, not an append scalar by scalar (figures: bench/README.md, "Instructions behind the code's shortcuts").
        // Only text that is not all ASCII (a unit's `°`) is scanned again, for C1 controls.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x7F })
            || (!s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C }) && !DisplayText.needsEscape(s))
        {
            return "\"" + s + "\""
        }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if DisplayText.needsEscape(u) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    private static func write(_ value: JSONValue, layout: Layout, depth: Int, indent: String, to out: inout String) {
        switch value {
        case .null, .unrepresentableNumber: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d): out += NumberText.number(d)
        case .string(let s): out += string(s)
        case .array(let elements):
            container("[", "]", elements.map { (nil, $0) }, layout: layout, depth: depth, indent: indent, to: &out)
        case .object(let object):
            container(
                "{", "}", object.members.map { ($0.key, $0.value) }, layout: layout, depth: depth, indent: indent,
                to: &out)
        }
    }

    private static func container(
        _ open: String, _ close: String, _ items: [(key: String?, value: JSONValue)], layout: Layout, depth: Int,
        indent: String, to out: inout String
    ) {
        out += open
        guard !items.isEmpty else {
            out += close
            return
        }
        let pretty = layout == .pretty
        let inner = pretty ? indent + "  " : ""
        for (i, item) in items.enumerated() {
            if i > 0 { out += "," }
            if pretty {
                out += "\n" + inner
            } else if case .records(let limit) = layout, depth < limit, item.value.isContainer {
                out += "\n"
            }
            if let key = item.key { out += string(key) + (pretty ? " : " : ":") }
            write(item.value, layout: layout, depth: depth + 1, indent: inner, to: &out)
        }
        if pretty { out += "\n" + indent }
        out += close
    }
}
