@testable import SensorRuntime
import Testing

struct DurationParserTests {
    @Test(arguments: [
        ("250ms", Int64(250_000_000)),
        ("1s", 1_000_000_000),
        ("1.5s", 1_500_000_000),
        ("0.1s", 100_000_000),
        ("5m", 300_000_000_000),
        ("2h", 7_200_000_000_000),
        ("1h30m", 5_400_000_000_000),
        ("1m0.5s", 60_500_000_000),
        ("1d", 86_400_000_000_000),
        ("0s", 0),
        ("0", 0),
        ("1.000000001s", 1_000_000_001),
        ("1.50s", 1_500_000_000),
        ("3us", 3_000),
        ("3µs", 3_000),
        ("7ns", 7),
        ("0.5ms", 500_000),
    ])
    func parsesExactNanoseconds(text: String, nanoseconds: Int64) throws {
        #expect(try DurationParser.parse(text) == .nanoseconds(nanoseconds))
        #expect(try DurationParser.parseNanoseconds(text) == nanoseconds)
    }

    @Test(arguments: [
        ("", "empty duration"),
        ("10", "missing unit (use ns, us, ms, s, m, h or d)"),
        ("10x", "unknown unit \"x\" (use ns, us, ms, s, m, h or d)"),
        ("10 s", "unknown unit \" s\" (use ns, us, ms, s, m, h or d)"),
        ("-1s", "must not be negative"),
        ("s", "expected a number, found \"s\""),
        (" 1s", "expected a number, found \" \""),
        ("1.s", "\"1.\" is not a number"),
        (".5s", "\".5\" is not a number"),
        ("1.2.3s", "\"1.2.3\" is not a number"),
        ("1s30m", "units must go from the largest to the smallest, each once"),
        ("1s1s", "units must go from the largest to the smallest, each once"),
        ("1.0000000001s", "finer than a nanosecond"),
        ("0.5ns", "finer than a nanosecond"),
        ("300000000h", "too long"),
        ("99999999999999999999s", "too long"),
    ])
    func rejectsMalformedText(text: String, message: String) {
        #expect(throws: SyntaxError(message: message)) { try DurationParser.parse(text) }
    }

    @Test(arguments: [
        (Int64(0), "0s"),
        (250_000_000, "250ms"),
        (1_500_000_000, "1.5s"),
        (60_000_000_000, "1m"),
        (5_400_000_000_000, "1h30m"),
        (3_600_500_000_000, "1h0.5s"),
        (1_000, "1us"),
        (7, "7ns"),
        (1_000_000_001, "1.000000001s"),
        (-2_000_000_000, "-2s"),
    ])
    func formatsShortestText(nanoseconds: Int64, text: String) throws {
        #expect(DurationParser.format(.nanoseconds(nanoseconds)) == text)
        if nanoseconds >= 0 {
            #expect(try DurationParser.parseNanoseconds(text) == nanoseconds)
        }
    }
}
