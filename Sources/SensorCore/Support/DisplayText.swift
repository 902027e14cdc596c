/// Text from outside the program made safe to show on a terminal or write to stderr
/// (SPEC §19): sysfs names and labels, journal fields, configuration strings, error texts
/// that quote them.
///
/// The one way the project does it, for every line a person or sd-daemon's stderr reader
/// sees. A control character would otherwise reach the terminal (`ESC[2J` clears it, OSC 52
/// writes the clipboard, `\r` overwrites what was printed) or start a line of its own (a
/// label holding `\n<0>forged` would be a priority-0 line on stderr). Escaped are:
/// - C0 controls: `\n`, `\r`, `\t` by name, the others as `\x1b`, `\x07`, `\x00`;
/// - DEL as `\x7f`;
/// - C1 controls (U+0080–U+009F: a terminal may read U+009B as CSI) as `\u{9b}`;
/// - the line and paragraph separators U+2028 and U+2029, which viewers show as line breaks,
///   and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
///   U+2066–U+2069), which make a line read other than its characters run, as `\u{202e}`.
///
/// A backslash is not escaped (see docs/decisions.md): escaping is idempotent, so text
/// already escaped (a message built from escaped parts) passes a writer's own escaping
/// unchanged. Invalid UTF-8 never gets here: decoding a file's bytes into a `String` puts
/// U+FFFD in its place, a printable character.
public enum DisplayText {
    /// `text` as one line: every control character escaped, a newline as `\n`.
    public static func escaped(_ text: String) -> String {
        escaped(text, keepingLineBreaks: false)
    }

    /// Each line of `text` escaped, the line breaks between them kept: for the program's own
    /// text of several lines that quotes text from outside.
    public static func escapedLines(_ text: String) -> String {
        escaped(text, keepingLineBreaks: true)
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        // Almost every text needs no escape: a scan of its bytes (of its scalars when it is
        // not all ASCII), no copy.
        let kept: (Unicode.Scalar) -> Bool = { keepingLineBreaks && $0 == "\n" }
        let plain = !text.utf8.contains(where: { $0 >= 0x7F || ($0 < 0x20 && !(keepingLineBreaks && $0 == 0x0A)) })
        if plain || !text.unicodeScalars.contains(where: { needsEscape($0) && !kept($0) }) { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            guard needsEscape(c), !kept(c) else {
                out.append(c)
                continue
            }
            out.append(contentsOf: escape(c).unicodeScalars)
        }
        return String(out)
    }

    /// Whether `c` is shown escaped.
    public static func needsEscape(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The escape of one character that ``needsEscape(_:)``.
    private static func escape(_ c: Unicode.Scalar) -> String {
        switch c {
        case "\n": return #"\n"#
        case "\r": return #"\r"#
        case "\t": return #"\t"#
        default:
            let hex = String(c.value, radix: 16)
            if c.value <= 0x7F { return #"\x"# + (hex.count == 1 ? "0" + hex : hex) }
            return #"\u{"# + hex + "}"
        }
    }
}
