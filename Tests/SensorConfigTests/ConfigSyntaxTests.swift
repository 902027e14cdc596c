@testable import SensorRuntime
import SensorTestKit
import Testing

struct ConfigSyntaxTests {
    @Test(arguments: [
        (
            "{\n  interval: \"1s\"\n  sources: []\n}",
            "line 3, column 3: expected \",\" or \"}\" after a value, found \"s\""
        ),
        ("{\n  rules: [\n    { name: \"x\" },\n", "line 4, column 1: expected a value, found end of file"),
        ("{\n  interval: \"1s\",\n  sources: @,\n}", "line 3, column 12: expected a value, found \"@\""),
        (
            "{\n  sources: [\n    { type: \"thermal\" }\n  \n}",
            "line 5, column 1: expected \",\" or \"]\" after a value, found \"}\""
        ),
        ("{ a: tru }", "line 1, column 6: expected a value, found \"tru\""),
        ("{ a: \"abc\n}", "line 1, column 6: unterminated string"),
        ("{ /* never closed\n a: 1 }", "line 1, column 3: unterminated /* comment"),
        ("{ a: 1 } x", "line 1, column 10: unexpected \"x\" after the end of the document"),
        ("{ a 1 }", "line 1, column 5: expected \":\" after a key, found \"1\""),
        ("{ a: [1, 2,, 3] }", "line 1, column 12: expected a value, found \",\""),
        ("{ a: 1.2.3 }", "line 1, column 9: expected \",\" or \"}\" after a value, found \".\""),
        ("{ a: 1e }", "line 1, column 8: expected a digit in the exponent, found \" \""),
        ("{ a: 007 }", "line 1, column 7: a number must not have a leading zero"),
        ("{ a: 1x }", "line 1, column 7: expected \",\" or \"}\" after a value, found \"x\""),
        ("{ -a: 1 }", "line 1, column 3: expected a key, found \"-\""),
        ("{\r\n  a: 1\r\n  b: 2\r\n}", "line 3, column 3: expected \",\" or \"}\" after a value, found \"b\""),
        ("", "line 1, column 1: expected a value, found end of file"),
        (
            "{\n  rules: [{ name: \"a\", sensor: \"*\",\n    above: 80, 'above': 90 }],\n}",
            "line 3, column 16: duplicate key \"above\""
        ),
        ("// only a comment\n", "line 2, column 1: expected a value, found end of file"),
    ])
    func pointsAtTheFirstSyntaxError(text: String, expected: String) {
        let files = TemporaryDirectory()
        files.write("c.json5", text)
        #expect(files.configErrors("c.json5") == ["c.json5: " + expected])
    }

    @Test(arguments: [
        "{ a: 1, }",
        "{ 'a': 'x', \"b\": [1, 2,], c: 0x1F, d: .5, e: +3, f: 5., g: -Infinity, h: NaN, $i_2: null }",
        "// c\n/* block */ { a: 'it\\'s', b: \"line\\\ncontinued\" } // end",
        "[1, {a: [true, false]}, \"x\"]",
    ])
    func scannerAcceptsValidJSON5(text: String) {
        #expect(throws: Never.self) { try JSON5Parser.parse(text) }
        let diagnostics = ConfigDiagnostics(file: "t")
        #expect(JSON5Document.parse(text, diagnostics: diagnostics) != nil)
        #expect(diagnostics.errors.isEmpty)
    }
}
