@testable import SensorConfig
@testable import SensorRuntime
import SensorTestKit
import Testing

/// Inputs the fuzz targets in `fuzz/` found mishandled, loaded through the in-memory entry
/// points (each is also in the target's seed corpus under `fuzz/corpus/`).
struct LoaderFuzzFindingsTests {
    private static func configErrors(_ text: String) -> [String] {
        do {
            _ = try ConfigLoader.load(contents: Array(text.utf8), path: "c.json5")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    private static func scenarioErrors(_ text: String) -> [String] {
        do {
            _ = try ScenarioLoader.load(contents: Array(text.utf8), path: "s.json5")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    /// Escapes in a JSON5 string put control characters into messages and key paths; each
    /// error must still print as one line (SPEC §2).
    @Test(arguments: [
        (
            #"{ interval: "1\ns" }"#,
            #"c.json5: interval: invalid duration "1\ns": unknown unit "\ns" (use ns, us, ms, s, m, h or d)"#
        ),
        (#"{ "a\tb\u0007": 1 }"#, #"c.json5: a\tb\x07: unknown key"#),
        (
            #"{ rules: [{ name: "r", sensor: "*", above: 1, severity: "loud\r\u2028" }] }"#,
            #"c.json5: rules[0].severity: unknown severity "loud\r\u{2028}" (expected critical, warning, notice or info)"#
        ),
    ])
    func controlCharactersInErrorsAreEscaped(text: String, expected: String) {
        #expect(Self.configErrors(text) == [expected])
    }

    /// Escapes JSON5 does not have are syntax errors with a line and column (they once
    /// passed the syntax scanner and failed in the toolchain's decoder without a position).
    @Test(arguments: [
        (#"{ \u0rules: 1 }"#, #"c.json5: line 1, column 3: invalid escape: 4 hexadecimal digits must follow "\u""#),
        (#"{ q\x61ity: 1 }"#, #"c.json5: line 1, column 4: invalid escape in a key (only "\uHHHH" is allowed)"#),
        (#"{ q\u0000ity: 1 }"#, #"c.json5: line 1, column 4: "\u0000" is not a letter a key can have"#),
        (#"{ q\y: 1 }"#, #"c.json5: line 1, column 4: invalid escape in a key (only "\uHHHH" is allowed)"#),
        ("{ \u{5C4}\u{7CD}: 1 }", #"c.json5: line 1, column 3: expected a key, found "\#u{5C4}""#),
        ("{\n  a: \"\\x4\" }", #"c.json5: line 2, column 7: invalid escape: 2 hexadecimal digits must follow "\x""#),
        (#"{ Bool\u0060: 1 }"#, #"c.json5: line 1, column 7: "\u0060" is not a letter a key can have"#),
        (#"{ \u0030a: 1 }"#, #"c.json5: line 1, column 3: "\u0030" is not a letter a key can have"#),
        (
            #"{ a: "\01" }"#,
            #"c.json5: line 1, column 7: invalid escape "\01" in a string (JSON5 has no octal escapes)"#
        ),
        (
            #"{ a: "\uDC00" }"#,
            #"c.json5: line 1, column 7: invalid escape: "\uDC00" is the second half of a surrogate pair"#
        ),
        (
            #"{ a: "\uD800x" }"#,
            #"c.json5: line 1, column 7: invalid escape: "\uD800" must be followed by the second half of its surrogate pair"#
        ),
        (#"{ a: "\1" }"#, #"c.json5: line 1, column 7: invalid escape "\1" in a string"#),
    ])
    func invalidEscapesAreSyntaxErrorsWithAPosition(text: String, expected: String) {
        #expect(Self.configErrors(text) == [expected])
    }

    /// A sample time beyond Int64 nanoseconds (about 292 years) trapped in
    /// `Timestamp.seconds` after being reported.
    @Test(arguments: ["1e10", "9.3e9", "1e300"])
    func sampleTimeTooLargeIsAnErrorNotACrash(time: String) {
        let text = "{ sensors: [{ id: \"a\", quantity: \"temperature\", samples: [[\(time), 4]] }] }"
        #expect(Self.scenarioErrors(text) == ["s.json5: sensors[0].samples[0][0]: time is too large"])
    }

    /// The toolchain's decoder traps (preconditionFailure in swift-foundation's
    /// `JSON5Scanner.validateNumber`) on numbers shaped like `0x0x`; the scanner must stop
    /// them first.
    @Test(arguments: ["0x0x", "{ interval: 0X0X1 }", "[-0x0x]"])
    func malformedHexNumbersAreSyntaxErrorsNotACrash(text: String) {
        let errors = Self.configErrors(text)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("line 1, column ") == true)
    }

    @Test(arguments: [#"{ a: "\uD83D\uDE00 \x41 \/ \'" }"#, "{ a: 1e999 }", "{ a: \"line\\\r\ncontinued\" }"])
    func scannerAcceptsWhatTheDecoderAccepts(text: String) {
        #expect(throws: Never.self) { try JSON5Parser.parse(text) }
        #expect(JSON5Document.parse(text, diagnostics: ConfigDiagnostics(file: "t")) != nil)
    }

    /// A document that is one long number made the decoder read past its buffer and, at
    /// times, trap; the number is now decoded inside an array.
    @Test(arguments: ["\n\n\n" + String(repeating: "8", count: 41), "1e400", "// a comment\n-0x1F // another"])
    func scalarDocumentsAreReportedAsNotAnObject(text: String) {
        #expect(Self.configErrors(text) == ["c.json5: expected an object, found a number"])
    }

    @Test func oneLeadingByteOrderMarkIsAllowed() throws {
        let text = "\u{FEFF}{ rules: [] }"
        #expect(try ConfigLoader.load(contents: Array(text.utf8), path: "c.json5").rules.isEmpty)
    }

    @Test func largestSampleTimeStillLoads() throws {
        let text = "{ sensors: [{ id: \"a\", quantity: \"temperature\", samples: [[9e9, 4]] }] }"
        let scenario = try ScenarioLoader.load(contents: Array(text.utf8), path: "s.json5")
        #expect(scenario.duration == .seconds(9_000_000_000))
    }

    @Test func inMemoryLoadMatchesTheFileLoad() throws {
        let files = TemporaryDirectory()
        let text = "{ rules: [{ name: \"r\", quantity: \"humidity\", below: 25 }] }"
        let path = files.write("c.json5", text)
        #expect(try ConfigLoader.load(contents: Array(text.utf8), path: path) == ConfigLoader.load(path: path))
        #expect(
            throws: ConfigErrors([
                ConfigError(file: "c.json5", location: .file, message: "cannot read: not valid UTF-8 text")
            ])
        ) {
            try ConfigLoader.load(contents: [0x7B, 0xFF, 0x7D], path: "c.json5")
        }
    }
}
