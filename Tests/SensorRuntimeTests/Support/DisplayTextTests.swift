@testable import SensorRuntime
import Testing

/// Text from outside shown on a terminal or stderr (SPEC §19): every control character
/// escaped, printable text as it was.
struct DisplayTextTests {
    @Test func everyC0ControlIsEscapedNewlineReturnAndTabByName() {
        for value in UInt32(0)...0x1F {
            let c = Character(Unicode.Scalar(value)!)
            let expected: String
            switch value {
            case 0x0A: expected = #"\n"#
            case 0x0D: expected = #"\r"#
            case 0x09: expected = #"\t"#
            default: expected = #"\x"# + (value < 0x10 ? "0" : "") + String(value, radix: 16)
            }
            #expect(DisplayText.escaped("a\(c)b") == "a" + expected + "b", "U+\(String(value, radix: 16))")
        }
        #expect(DisplayText.escaped("\u{1B}[2J") == #"\x1b[2J"#)
        #expect(DisplayText.escaped("\u{7}") == #"\x07"#)
        #expect(DisplayText.escaped("\u{0}") == #"\x00"#)
    }

    @Test func delAndEveryC1ControlAreEscaped() {
        #expect(DisplayText.escaped("a\u{7F}b") == #"a\x7fb"#)
        for value in UInt32(0x80)...0x9F {
            let text = String(Character(Unicode.Scalar(value)!))
            #expect(DisplayText.escaped(text) == #"\u{"# + String(value, radix: 16) + "}")
        }
    }

    @Test func lineSeparatorsAndBidiOverridesAreEscaped() {
        #expect(DisplayText.escaped("a\u{2028}b\u{2029}c") == #"a\u{2028}b\u{2029}c"#)
        #expect(DisplayText.escaped("\u{202E}gnp.exe") == #"\u{202e}gnp.exe"#)
        #expect(DisplayText.escaped("\u{2066}x\u{2069}") == #"\u{2066}x\u{2069}"#)
    }

    /// The scan of a text's bytes agrees with the test of each character, at the edges of
    /// every escaped range too.
    @Test func theScanOfTheBytesFindsExactlyTheEscapedCharacters() {
        for value in Array(UInt32(0)...0x2100) + Array(UInt32(0x2020)...0x2070) + [0xFFFD, 0x1F321] {
            guard let c = Unicode.Scalar(value) else { continue }
            let text = "ab" + String(Character(c)) + "°"
            #expect(DisplayText.needsEscape(text) == DisplayText.needsEscape(c), "U+\(String(value, radix: 16))")
        }
        #expect(!DisplayText.needsEscape("a\nb", keepingLineBreaks: true))
        #expect(DisplayText.needsEscape("a\nb"))
    }

    @Test func printableTextIsKeptAsItIsIncludingUTF8AndBackslashes() {
        for text in ["x86_pkg_temp", "°C", "Außentemperatur", "温度", "🌡️ sensor", #"C:\temp"#, "a b\u{A0}c", "\u{200F}"] {
            #expect(DisplayText.escaped(text) == text)
        }
    }

    /// Bytes that are not UTF-8 are U+FFFD once decoded; the controls around them are still escaped.
    @Test func invalidBytesDecodeToAReplacementCharacterAndControlsAroundThemAreEscaped() {
        let decoded = String(
            decoding: [0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0x0A, 0xC2, 0x9B] as [UInt8], as: UTF8.self)
        #expect(DisplayText.escaped(decoded) == "\u{FFFD}" + #"\x1b[2J"# + "\u{FFFD}" + #"\n\u{9b}"#)
    }

    /// The attack of SPEC §19: a label that clears the screen, writes the clipboard (OSC 52),
    /// overwrites the line and forges a priority-0 line on stderr.
    @Test func aHostileLabelIsOneLineWithoutAControlCharacter() {
        let label = "\u{1B}[2J\u{1B}]52;c;aGk=\u{7}\r\n<0>forged"
        let shown = DisplayText.escaped(label)
        #expect(shown == #"\x1b[2J\x1b]52;c;aGk=\x07\r\n<0>forged"#)
        #expect(!shown.unicodeScalars.contains(where: DisplayText.needsEscape))
    }

    /// Escaping what is escaped changes nothing, so a writer may escape a line built from
    /// escaped parts again.
    @Test func escapingIsIdempotent() {
        let once = DisplayText.escaped("a\u{1B}b\nc\u{9B}d\\x1b")
        #expect(DisplayText.escaped(once) == once)
        #expect(DisplayText.escapedLines(once) == once)
    }

    @Test func escapedLinesKeepsTheLineBreaksOnlyAndCarriageReturnNewlineIsNoBreak() {
        #expect(DisplayText.escapedLines("one\n\u{1B}[31mtwo\n") == "one\n" + #"\x1b[31mtwo"# + "\n")
        #expect(DisplayText.escapedLines("a\r\n<0>b") == #"a\r"# + "\n<0>b")
        #expect(DisplayText.escapedLines("a\u{2028}b") == #"a\u{2028}b"#)
    }

    @Test func quotedBytesShowAsciiControlsQuotesAndBackslashesAsHex() {
        let bytes = Array("12\u{0}3\t4\n\u{1B}[2J\"x\\\u{7F}".utf8)
        #expect(DisplayText.quoted(bytes, cutAt: 40) == #""12\x003\x094\x0a\x1b[2J\x22x\x5c\x7f""#)
        #expect(DisplayText.quoted([UInt8](), cutAt: 40) == #""""#)
    }

    @Test func quotedBytesKeepUTF8CharactersAndEscapeTheHostileOnes() {
        #expect(DisplayText.quoted(Array("21.5 °C".utf8), cutAt: 40) == #""21.5 °C""#)
        #expect(DisplayText.quoted(Array("a\u{9B}2J\u{202E}b".utf8), cutAt: 40) == #""a\u{9b}2J\u{202e}b""#)
    }

    @Test func quotedBytesThatAreNotUTF8ShowEachByteInHex() {
        // A lone continuation byte, a Latin-1 é, a sequence cut short, a C1 control as one byte.
        let bytes: [UInt8] = [0x31, 0x80, 0xE9, 0x32, 0xE2, 0x82, 0x33, 0x9B]
        #expect(DisplayText.quoted(bytes, cutAt: 40) == #""1\x80\xe92\xe2\x823\x9b""#)
    }

    @Test func quotedBytesAreCutAtTheLimitWithAnEllipsisWithoutSplittingACharacter() {
        let nines = [UInt8](repeating: UInt8(ascii: "9"), count: 41)
        #expect(DisplayText.quoted(nines, cutAt: 40) == "\"" + String(repeating: "9", count: 40) + "…\"")
        #expect(DisplayText.quoted(nines.dropLast(), cutAt: 40) == "\"" + String(repeating: "9", count: 40) + "\"")
        // "°" is two bytes: the third and fourth of four would cross a limit of three.
        #expect(DisplayText.quoted(Array("ab°".utf8), cutAt: 3) == #""ab…""#)
        // An escaped byte counts as the one byte it was.
        #expect(DisplayText.quoted([0, 0, 0], cutAt: 2) == #""\x00\x00…""#)
    }
}
