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
/// unchanged. Invalid UTF-8 never reaches ``escaped(_:)``: decoding a file's bytes into a
/// `String` puts U+FFFD in its place, a printable character; bytes shown as they were read
/// go through ``quoted(_:cutAt:)``, which shows such a byte as `\xNN`.
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

    /// Whether `text` holds a character ``needsEscape(_:)``, `\n` aside when `keepingLineBreaks`.
    public static func needsEscape(_ text: String, keepingLineBreaks: Bool = false) -> Bool {
        // A scan of the UTF-8 bytes, the encodings of the escaped characters matched as
        // bytes, not every scalar decoded to test it (figures: bench/README.md, "Instructions behind the code's shortcuts").
        var utf8 = text
        return utf8.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b &- 0x20 < 0x5F { continue }  // printable ASCII, nearly every byte
                if b < 0x20 {
                    if !(keepingLineBreaks && b == 0x0A) { return true }
                } else if b == 0x7F {
                    return true
                } else if b == 0xC2, i < bytes.count, bytes[i] <= 0x9F {
                    return true
                }  // U+0080–U+009F
                else if b == 0xE2, i + 1 < bytes.count {
                    let (b1, b2) = (bytes[i], bytes[i + 1])
                    if b1 == 0x80, (0xA8...0xAE).contains(b2) { return true }  // U+2028–U+202E
                    if b1 == 0x81, (0xA6...0xA9).contains(b2) { return true }  // U+2066–U+2069
                }
            }
            return false
        }
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        guard needsEscape(text, keepingLineBreaks: keepingLineBreaks) else { return text }
        return text.replacingScalars { needsEscape($0) && !(keepingLineBreaks && $0 == "\n") ? escape($0) : nil }
    }

    /// Bytes from outside as read (a sysfs file's text, which may be anything), quoted for a
    /// message: `"12\x0034"`. A UTF-8 character is shown as ``escaped(_:)`` shows it; ASCII
    /// controls, `"` and `\` as `\xNN` (so the quotes hold exactly what was read), and so is
    /// each byte that is not part of a UTF-8 character (where decoding would show U+FFFD and
    /// hide the byte). Cut with `…` before the byte `limit` + 1: a file of garbage makes a
    /// short message, not a long one.
    public static func quoted(_ bytes: some Collection<UInt8>, cutAt limit: Int) -> String {
        let bytes = Array(bytes)
        var out = "\""
        var i = 0
        while i < bytes.count {
            // A parser of its own for each character: an error's bytes are then bytes[i..<i + n].
            var rest = bytes[i...].makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            let length: Int
            let shown: String
            switch parser.parseScalar(from: &rest) {
            case .emptyInput: return out + "\""
            case .valid(let encoded):
                length = encoded.count
                let c = Unicode.UTF8.decode(encoded)
                if c.isASCII, needsEscape(c) || c == "\"" || c == "\\" {
                    shown = hexEscape(UInt8(c.value))
                } else {
                    shown = needsEscape(c) ? escape(c) : String(Character(c))
                }
            case .error(let n):
                length = n
                shown = bytes[i..<i + n].map(hexEscape).joined()
            }
            if i + length > limit { return out + "…\"" }
            out += shown
            i += length
        }
        return out + "\""
    }

    /// `\x1b`: a byte as two lower-case hexadecimal digits.
    private static func hexEscape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16)
        return #"\x"# + (hex.count == 1 ? "0" + hex : hex)
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
            if c.value <= 0x7F { return hexEscape(UInt8(c.value)) }
            return #"\u{"# + String(c.value, radix: 16) + "}"
        }
    }
}
