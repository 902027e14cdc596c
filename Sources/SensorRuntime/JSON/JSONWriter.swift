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
        /// Each member and element of a container down to nesting `depth` (the document is
        /// at 0) on a line of its own, indented by two spaces a level; deeper containers on the
        /// line they start on. `spaced` writes `"key": value, …` as a person does. A member
        /// named `packed` (an array too long for one line) starts a line of its own and holds
        /// its elements `perLine` a line. `sensors --json` is one sensor a line (SPEC §2); a
        /// recorded scenario (SPEC §15) one sensor a line group, its samples ten a line.
        case lines(depth: Int, spaced: Bool = false, packed: String? = nil, perLine: Int = 1)
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
        case .numberText(let text): out += text
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
        var multiline = layout == .pretty
        var spaced = false
        var packed: (key: String?, perLine: Int) = (nil, 1)
        if case .lines(let limit, let isSpaced, let key, let perLine) = layout {
            multiline = depth < limit
            spaced = isSpaced
            packed = (key, perLine)
        }
        let inner = multiline ? indent + "  " : indent
        let colon = layout == .pretty ? " : " : spaced ? ": " : ":"
        for (i, item) in items.enumerated() {
            if let key = item.key, key == packed.key, case .array(let elements) = item.value {
                out += (i > 0 ? "," : "") + "\n" + indent + " " + string(key) + colon
                writePacked(
                    elements, perLine: packed.perLine, comma: spaced ? ", " : ",", layout: layout, depth: depth + 1,
                    indent: indent + " ", to: &out)
                continue
            }
            if i > 0 { out += spaced && !multiline ? ", " : "," }
            if multiline {
                out += "\n" + inner
            } else if case .records(let limit) = layout, depth < limit, item.value.isContainer {
                out += "\n"
            }
            if let key = item.key { out += string(key) + colon }
            write(item.value, layout: layout, depth: depth + 1, indent: inner, to: &out)
        }
        if multiline { out += "\n" + indent }
        out += close
    }

    /// An array `perLine` elements a line, its lines indented two spaces past `indent`, its
    /// closing bracket at `indent` (``Layout/lines(depth:spaced:packed:perLine:)``'s `packed`).
    private static func writePacked(
        _ elements: [JSONValue], perLine: Int, comma: String, layout: Layout, depth: Int, indent: String,
        to out: inout String
    ) {
        out += "["
        guard !elements.isEmpty else {
            out += "]"
            return
        }
        let inner = indent + "  "
        for (i, element) in elements.enumerated() {
            if i > 0 { out += i % max(1, perLine) == 0 ? "," : comma }
            if i % max(1, perLine) == 0 { out += "\n" + inner }
            write(element, layout: layout, depth: depth + 1, indent: inner, to: &out)
        }
        out += "\n" + indent + "]"
    }
}
