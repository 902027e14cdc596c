@testable import SensorRuntime
import Testing

/// The parser against the cases of the json5/json5 reference implementation's own tests
/// (`test/parse.js`, `test/errors.js`), rewritten here: a valid text gives its value, an
/// invalid one an error with a position. Where sensorwatch is stricter than json5.org (a lone
/// surrogate, duplicate keys) the table says so.
struct JSON5ConformanceTests {
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    @Test(
        arguments: [
            // objects
            ("{}", object([])),
            (#"{"a":1}"#, object([("a", .integer(1))])),
            ("{'a':1}", object([("a", .integer(1))])),
            ("{a:1}", object([("a", .integer(1))])),
            (
                "{$_:1,_$:2,a\u{200C}:3}",
                object([("$_", .integer(1)), ("_$", .integer(2)), ("a\u{200C}", .integer(3))])
            ),
            ("{ùńîċõďë:9}", object([("ùńîċõďë", .integer(9))])),
            (
                #"{\u0061\u0062:1,\u0024\u005F:2,\u005F\u0024:3}"#,
                object([("ab", .integer(1)), ("$_", .integer(2)), ("_$", .integer(3))])
            ),
            ("{abc:1,def:2}", object([("abc", .integer(1)), ("def", .integer(2))])),
            ("{a:{b:2}}", object([("a", object([("b", .integer(2))]))])),
            ("{z:1,a:2,m:3}", object([("z", .integer(1)), ("a", .integer(2)), ("m", .integer(3))])),
            ("{a:1,}", object([("a", .integer(1))])),
            // arrays
            ("[]", .array([])),
            ("[1]", .array([.integer(1)])),
            ("[1,2]", .array([.integer(1), .integer(2)])),
            ("[1,[2,3]]", .array([.integer(1), .array([.integer(2), .integer(3)])])),
            ("[1,2,]", .array([.integer(1), .integer(2)])),
            // literals
            ("null", .null),
            ("true", .bool(true)),
            ("false", .bool(false)),
            // numbers
            ("[0,0.,0e0]", .array([.integer(0), .integer(0), .integer(0)])),
            ("[1,23,456,7890]", .array([.integer(1), .integer(23), .integer(456), .integer(7890)])),
            ("[-1,+2,-.1,-0]", .array([.integer(-1), .integer(2), .number(-0.1), .integer(0)])),
            ("[.1,.23]", .array([.number(0.1), .number(0.23)])),
            ("[1.0,1.23]", .array([.integer(1), .number(1.23)])),
            (
                "[1e0,1e1,1e01,1.e0,1.1e0,1e-1,1e+1]",
                .array([.integer(1), .integer(10), .integer(10), .integer(1), .number(1.1), .number(0.1), .integer(10)])
            ),
            ("[0x1,0x10,0xff,0xFF]", .array([.integer(1), .integer(16), .integer(255), .integer(255)])),
            ("[Infinity,-Infinity,+Infinity]", .array([.number(.infinity), .number(-.infinity), .number(.infinity)])),
            ("1", .integer(1)),
            ("+1.23e100", .number(1.23e100)),
            ("0x1", .integer(1)),
            ("-0x0123456789abcdefABCDEF", .number(-Double(0x0123456789abcdef) * 16_777_216 - Double(0xABCDEF))),
            ("9223372036854775807", .integer(.max)),
            ("-0x8000000000000000", .integer(.min)),
            ("9223372036854775808", .number(9_223_372_036_854_775_808)),
            ("1e400", .unrepresentableNumber),
            // strings
            (#""abc""#, .string("abc")),
            ("'abc'", .string("abc")),
            (#"['"',"'"]"#, .array([.string("\""), .string("'")])),
            (
                #"'\b\f\n\r\t\v\0\x0f\u01fF\"# + "\n" + #"\"# + "\r\n" + #"\"# + "\r" + #"\"# + "\u{2028}" + #"\"#
                    + "\u{2029}" + #"\a\'\"'"#,
                .string("\u{8}\u{C}\n\r\t\u{B}\u{0}\u{F}\u{1FF}a'\"")
            ),
            ("'\u{2028}\u{2029}'", .string("\u{2028}\u{2029}")),
            ("'this is \\a non-escape character'", .string("this is a non-escape character")),
            (#""\uD83D\uDE00""#, .string("\u{1F600}")),
            ("'tab\there'", .string("tab\there")),
            // comments and white space
            ("{//comment\n}", object([])),
            ("{}//comment", object([])),
            ("{/*comment\n** */}", object([])),
            ("{\t\u{B}\u{C} \u{A0}\u{FEFF}\n\r\u{2028}\u{2029}\u{2003}}", object([])),
            ("\u{FEFF}{}", object([])),
        ] as [(String, JSONValue)])
    func validTextGivesItsValue(text: String, expected: JSONValue) throws {
        #expect(try JSON5Parser.parse(text) == expected)
    }

    @Test func nanParsesAsNaN() throws {
        for text in ["NaN", "-NaN", "+NaN"] {
            guard case .number(let d) = try JSON5Parser.parse(text) else {
                Issue.record("\(text) is not a number")
                continue
            }
            #expect(d.isNaN)
        }
    }

    @Test(arguments: [
        ("", 1, 1),
        ("//a", 1, 4),
        ("/a", 1, 1),
        ("/*", 1, 1),
        ("/**", 1, 1),
        ("a", 1, 1),
        (#"{\a:1}"#, 1, 2),
        (#"{\u0021:1}"#, 1, 2),
        (#"{a\a:1}"#, 1, 3),
        (#"{a\u0021:1}"#, 1, 3),
        ("-a", 1, 2),
        (".a", 1, 2),
        ("1ea", 1, 3),
        ("1e-a", 1, 4),
        ("0xg", 1, 3),
        ("\"\n\"", 1, 1),
        ("\"", 1, 1),
        ("{!:1}", 1, 2),
        ("{a!1}", 1, 3),
        ("{a:1!}", 1, 5),
        ("[1!]", 1, 3),
        ("tru!", 1, 1),
        (#""\"#, 1, 1),
        (#""\xg""#, 1, 2),
        (#""\x0g""#, 1, 2),
        (#""\u000g""#, 1, 2),
        (#"'\1'"#, 1, 2),
        (#"'\9'"#, 1, 2),
        (#"'\01'"#, 1, 2),
        ("1 2", 1, 3),
        ("\u{1}", 1, 1),
        ("{", 1, 2),
        ("{a", 1, 3),
        ("{a:", 1, 4),
        ("{a:1", 1, 5),
        ("[", 1, 2),
        ("[1", 1, 3),
        ("[1,", 1, 4),
        (#"'\x \x0'"#, 1, 2),
        (#"'\u \u0 \u00 \u000'"#, 1, 2),
        ("007", 1, 2),
        // Stricter than json5.org: a Swift string cannot hold a lone surrogate, and of two
        // equal keys one would be silently lost.
        (#""\uD800""#, 1, 2),
        (#""\uDC00""#, 1, 2),
        ("{a:1,'a':2}", 1, 6),
    ])
    func invalidTextIsAnErrorAtAPosition(text: String, line: Int, column: Int) {
        #expect {
            _ = try JSON5Parser.parse(text)
        } throws: { error in
            guard let failure = error as? JSON5Parser.Failure else { return false }
            return failure.line == line && failure.column == column
        }
    }
}
