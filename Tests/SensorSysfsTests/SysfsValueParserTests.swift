import SensorSysfs
import Testing

@Suite struct SysfsValueParserTests {
    static let cases: [(String, Int, SysfsParsedValue)] = [
        ("24380\n", 0, .number(24380)),
        ("24380\n", -3, .number(24.38)),
        ("12376\n", -3, .number(12.376)),
        ("-44000\n", -3, .number(-44)),
        ("102.129031250\n", 0, .number(102.12903125)),
        ("102.129031250\n", 1, .number(1021.2903125)),
        ("2.517700195\n", 0, .number(2.517700195)),
        ("-15887.515151\n", 0, .number(-15887.515151)),
        ("0.000003906\n", 0, .number(0.000003906)),
        ("-0.500000\n", 0, .number(-0.5)),
        ("+7", 0, .number(7)),
        ("  42  \n", 0, .number(42)),
        ("0", 0, .number(0)),
        ("65261850\n", -3, .number(65261.85)),
        ("", 0, .empty),
        ("\n", 0, .empty),
        (" \t\n", 0, .empty),
        ("abc\n", 0, .invalid),
        ("1e3\n", 0, .invalid),
        ("0x10\n", 0, .invalid),
        ("12 34\n", 0, .invalid),
        ("-\n", 0, .invalid),
        (".\n", 0, .invalid),
        ("1.2.3\n", 0, .invalid),
        ("42\u{0}\n", 0, .invalid),
        ("--1", 0, .invalid),
        ("1234567890123456789012\n", 0, .invalid),
    ]

    /// Trailing zeros used to enter the integer mantissa, which then exceeded 2^53 and was
    /// rounded twice (found by fuzz/SysfsValueFuzzTarget.swift).
    static let trailingZeroCases: [(String, Int, SysfsParsedValue)] = [
        ("0.001000010000000000000000", -7, .number(1.00001e-10)),
        ("9.99999999999999000\n", 0, .number(9.99999999999999)),
        ("0.001000000\n", 0, .number(0.001)),
        ("100000000000000000\n", -3, .number(1e14)),
        ("120.50\n", 0, .number(120.5)),
        ("0.0000000000000000000123\n", 0, .number(1.23e-20)),
    ]

    @Test(arguments: trailingZeroCases)
    func trailingZerosDoNotCostExactness(text: String, exponent: Int, expected: SysfsParsedValue) {
        let bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeBytes { SysfsValueParser.parse($0, decimalExponent: exponent) }
        #expect(parsed == expected)
    }

    @Test(arguments: cases)
    func parsesKernelDecimalText(text: String, exponent: Int, expected: SysfsParsedValue) {
        let bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeBytes { SysfsValueParser.parse($0, decimalExponent: exponent) }
        #expect(parsed == expected)
    }

    @Test func dropsFractionDigitsBeyondEighteenSignificant() {
        let bytes = Array("1.23456789012345678901234\n".utf8)
        let parsed = bytes.withUnsafeBytes { SysfsValueParser.parse($0) }
        #expect(parsed == .number(1.23456789012345678))
    }
}
