@testable import SensorRuntime
import Testing

/// The escapers' one loop: each scalar replaced where the rule gives a text, kept otherwise.
struct ReplacingScalarsTests {
    @Test func replacesOnlyTheScalarsTheRuleNames() {
        #expect("a<b>é\u{7}".replacingScalars { $0 == "<" ? "&lt;" : $0 == "\u{7}" ? "\\x07" : nil } == "a&lt;b>é\\x07")
    }

    @Test func keepsATextWithNothingToReplace() {
        #expect("x86 °C".replacingScalars { _ in nil } == "x86 °C")
        #expect("".replacingScalars { _ in "!" } == "")
    }

    @Test func theEscapersKeepTheirTexts() {
        #expect(JSONWriter.string("a\"b\\\n\u{7f}\u{2028}") == #""a\"b\\\n\u007f\u2028""#)
        #expect(DisplayText.escaped("a\u{1b}[2Jb\n") == #"a\x1b[2Jb\n"#)
        #expect(DisplayText.escapedLines("a\u{7}\nb") == "a\\x07\nb")
    }
}
