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

    /// What a layout makes of one container: its separators and where its items start.
    private struct Format {
        /// One item a line.
        var multiline: Bool
        var spaced = false
        var packed: String?
        var perLine = 1
        /// The indent of its items' lines.
        var inner: String
        var colon: String
        var comma: String
        /// The depth down to which `records` starts a container's line.
        var records = 0

        init(_ layout: Layout, depth: Int, indent: String) {
            multiline = layout == .pretty
            if case .lines(let limit, let spaced, let packed, let perLine) = layout {
                multiline = depth < limit
                self.spaced = spaced
                self.packed = packed
                self.perLine = max(1, perLine)
            }
            if case .records(let limit) = layout { records = limit }
            inner = multiline ? indent + "  " : indent
            colon = layout == .pretty ? " : " : spaced ? ": " : ":"
            comma = spaced && !multiline ? ", " : ","
        }
    }

    /// `value` as JSON text without a trailing newline.
    package static func text(_ value: JSONValue, layout: Layout = .compact) -> String {
        // Bytes, made a String once: appending to a String cost twice as much as the rest of
        // the writing (figures: bench/README.md, "Instructions behind the code's shortcuts").
        var out: [UInt8] = []
        write(value, layout: layout, depth: 0, indent: "", to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string literal with the escapes JSON requires, and the other characters
    /// ``DisplayText`` escapes (DEL, C1 controls, line separators, bidi controls) as `\u007f`,
    /// so the output shown on a terminal carries no control character either (SPEC §19).
    public static func string(_ s: String) -> String {
        // Most strings (ids, labels, units, limit names) need no escape: one scan of the
        // bytes and one concatenation, not an append scalar by scalar (figures: bench/README.md, "Instructions behind the code's shortcuts").
        // Only text that is not all ASCII (a unit's `°`) is scanned again, for C1 controls.
        if isPlain(s) { return "\"" + s + "\"" }
        let escaped = s.replacingScalars { u in
            switch u {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default:
                guard DisplayText.needsEscape(u) else { return nil }
                let hex = String(u.value, radix: 16)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return "\"" + escaped + "\""
    }

    /// Whether `s` needs no escape.
    private static func isPlain(_ s: String) -> Bool {
        !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x7F })
            || (!s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C }) && !DisplayText.needsEscape(s))
    }

    /// ``string(_:)`` appended to `out`, a plain string without a string of its own first.
    fileprivate static func append(string s: String, to out: inout [UInt8]) {
        guard isPlain(s) else {
            out += string(s)
            return
        }
        out.append(UInt8(ascii: "\""))
        out += s
        out.append(UInt8(ascii: "\""))
    }

    // Not inlined into its callers (``item``, ``writePacked``), which call it back: inlined,
    // the recursion made `writePacked` alone 17 KB of the binary's text (bench/README.md).
    @inline(never)
    private static func write(_ value: JSONValue, layout: Layout, depth: Int, indent: String, to out: inout [UInt8]) {
        switch value {
        case .null, .unrepresentableNumber: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d): out += NumberText.number(d)
        case .numberText(let text): out += text
        case .string(let s): append(string: s, to: &out)
        // Each element and member written in place, not gathered into a list of pairs
        // first: `sensors --json` writes 21 000 of them (figures: bench/README.md,
        // "Instructions behind the code's shortcuts").
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            guard !elements.isEmpty else {
                out.append(UInt8(ascii: "]"))
                return
            }
            let f = Format(layout, depth: depth, indent: indent)
            for i in elements.indices {
                item(i, key: nil, elements[i], f, layout: layout, depth: depth, indent: indent, to: &out)
            }
            close("]", f, indent: indent, to: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            guard !object.members.isEmpty else {
                out.append(UInt8(ascii: "}"))
                return
            }
            let f = Format(layout, depth: depth, indent: indent)
            for i in object.members.indices {
                let member = object.members[i]
                item(i, key: member.key, member.value, f, layout: layout, depth: depth, indent: indent, to: &out)
            }
            close("}", f, indent: indent, to: &out)
        }
    }

    /// The element or member at `index` of a container at `depth`, with what goes before it.
    private static func item(
        _ index: Int, key: String?, _ value: JSONValue, _ f: Format, layout: Layout, depth: Int, indent: String,
        to out: inout [UInt8]
    ) {
        if let key, key == f.packed, case .array(let elements) = value {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
            out += indent
            out.append(UInt8(ascii: " "))
            append(string: key, to: &out)
            out += f.colon
            writePacked(elements, f, layout: layout, depth: depth + 1, indent: indent + " ", to: &out)
            return
        }
        if index > 0 { out += f.comma }
        if f.multiline {
            out.append(UInt8(ascii: "\n"))
            out += f.inner
        } else if depth < f.records, value.isContainer {
            out.append(UInt8(ascii: "\n"))
        }
        if let key {
            append(string: key, to: &out)
            out += f.colon
        }
        write(value, layout: layout, depth: depth + 1, indent: f.inner, to: &out)
    }

    private static func close(_ bracket: String, _ f: Format, indent: String, to out: inout [UInt8]) {
        if f.multiline {
            out.append(UInt8(ascii: "\n"))
            out += indent
        }
        out += bracket
    }

    /// An array `perLine` elements a line, its lines indented two spaces past `indent`, its
    /// closing bracket at `indent` (``Layout/lines(depth:spaced:packed:perLine:)``'s `packed`).
    private static func writePacked(
        _ elements: [JSONValue], _ f: Format, layout: Layout, depth: Int, indent: String, to out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "["))
        guard !elements.isEmpty else {
            out.append(UInt8(ascii: "]"))
            return
        }
        let inner = indent + "  "
        let comma = f.spaced ? ", " : ","
        for i in elements.indices {
            let lineStart = i % f.perLine == 0
            if i > 0 { out += lineStart ? "," : comma }
            if lineStart {
                out.append(UInt8(ascii: "\n"))
                out += inner
            }
            write(elements[i], layout: layout, depth: depth + 1, indent: inner, to: &out)
        }
        out.append(UInt8(ascii: "\n"))
        out += indent
        out.append(UInt8(ascii: "]"))
    }
}

/// Appends `text`'s UTF-8 bytes to the bytes ``JSONWriter`` writes.
fileprivate func += (out: inout [UInt8], text: String) { out.append(contentsOf: text.utf8) }

extension JSONWriter {
    /// One flat JSON object written member by member straight into its bytes, with the
    /// writer's own escapes and numbers but no ``JSONValue`` tree: for a line written once
    /// an event (`simulate --json`: 52 479 of them at 1000 sensors x 6 min), where building
    /// the tree cost about 6 000 instructions an event (bench/README.md).
    package struct ObjectWriter {
        private var out: [UInt8] = [UInt8(ascii: "{")]

        /// An empty object.
        package init() { out.reserveCapacity(256) }

        private mutating func key(_ key: String) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONWriter.append(string: key, to: &out)
            out.append(UInt8(ascii: ":"))
        }

        /// `key: "text"`, or null.
        package mutating func string(_ key: String, _ value: String?) {
            self.key(key)
            if let value { JSONWriter.append(string: value, to: &out) } else { out += "null" }
        }

        /// `key: number` as ``NumberText/number(_:)`` writes it, or null.
        package mutating func number(_ key: String, _ value: Double?) {
            self.key(key)
            out += value.map(NumberText.number) ?? "null"
        }

        /// `key: text`, a number its maker spelled (``JSONValue/numberText(_:)``).
        package mutating func numberText(_ key: String, _ text: String) {
            self.key(key)
            out += text
        }

        /// `key: true` or `false`.
        package mutating func bool(_ key: String, _ value: Bool) {
            self.key(key)
            out += value ? "true" : "false"
        }

        /// The object's text.
        package var text: String {
            var bytes = out
            bytes.append(UInt8(ascii: "}"))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
