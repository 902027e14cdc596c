@testable import SensorSysfs

/// libFuzzer target: `SysfsValueParser.parse(_:decimalExponent:)`.
///
/// The first input byte picks the decimal exponent (-9…9), the rest is the attribute text,
/// handed over in a buffer of exactly its size so AddressSanitizer catches any read past
/// either end. The result is compared with an independent reading of the documented grammar:
/// `.empty` exactly for whitespace, `.number` exactly for one decimal, always finite, equal to
/// the nearest `Double` for up to 15 significant digits with the decimal point at most 22
/// places from the integer they form, and within a few ulps otherwise.
@_cdecl("LLVMFuzzerTestOneInput")
public func sysfsValueFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let exponent = Int(data[0] % 19) - 9
    let text = UnsafeMutableRawBufferPointer.allocate(byteCount: size - 1, alignment: 1)
    defer { text.deallocate() }
    text.copyMemory(from: UnsafeRawBufferPointer(start: data + 1, count: size - 1))
    let parsed = SysfsValueParser.parse(UnsafeRawBufferPointer(text), decimalExponent: exponent)
    let expected = ReferenceDecimal(Array(text))
    let shown = String(decoding: text, as: UTF8.self).debugDescription
    switch (parsed, expected) {
    case (.empty, .empty), (.invalid, .invalid):
        break
    case (.number(let value), .number(text: let reference, significant: let significant, exponent: let shift)):
        fuzzCheck(value.isFinite, "\(shown) parsed as \(value)")
        let scaled = reference.scaled(by: exponent)
        if significant <= 15 && abs(shift + exponent) <= 22 {
            fuzzCheck(value == scaled, "\(shown) ×10^\(exponent) parsed as \(value), nearest is \(scaled)")
        } else {
            let tolerance = max(4 * scaled.ulp, 4 * Double.leastNonzeroMagnitude)
            fuzzCheck(abs(value - scaled) <= tolerance, "\(shown) ×10^\(exponent) parsed as \(value), expected \(scaled)")
        }
    default:
        fuzzCheck(false, "\(shown) ×10^\(exponent) parsed as \(parsed), expected \(expected)")
    }
    return 0
}

/// The documented grammar, read independently of the parser under test.
enum ReferenceDecimal: CustomStringConvertible {
    case empty
    case invalid
    /// The decimal's text as `strtod` reads it, how many significant digits it has, and
    /// the power of ten that turns those digits, as an integer, into the value.
    case number(text: String, significant: Int, exponent: Int)

    init(_ bytes: [UInt8]) {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            self = .empty
            return
        }
        var body = bytes[first...last]
        var sign = ""
        if let s = body.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
            sign = s == UInt8(ascii: "-") ? "-" : ""
            body = body.dropFirst()
        }
        let parts = body.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : []
        guard whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), whole.count + fraction.count > 0 else {
            self = .invalid
            return
        }
        let wholeSignificant = whole.drop { $0 == UInt8(ascii: "0") }.count
        guard wholeSignificant <= 18 else {
            self = .invalid
            return
        }
        let digits = (whole + fraction).drop { $0 == UInt8(ascii: "0") }
        let trimmed = digits.reversed().drop { $0 == UInt8(ascii: "0") }.count
        let trailingZeros = digits.count - trimmed
        let text = sign + String(decoding: whole.isEmpty ? [UInt8(ascii: "0")] : Array(whole), as: UTF8.self)
            + (fraction.isEmpty ? "" : "." + String(decoding: fraction, as: UTF8.self))
        self = .number(text: text, significant: trimmed, exponent: trailingZeros - fraction.count)
    }

    var description: String {
        switch self {
        case .empty: return "empty"
        case .invalid: return "invalid"
        case .number(let text, _, _): return "number \(text)"
        }
    }
}

extension String {
    /// This decimal times 10^exponent, rounded once to the nearest `Double` (by `strtod`).
    fileprivate func scaled(by exponent: Int) -> Double {
        Double(self + "e\(exponent)") ?? .nan
    }
}
