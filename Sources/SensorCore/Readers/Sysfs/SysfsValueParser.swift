/// Parses the decimal text of a sysfs attribute without allocating.
///
/// Accepts what the kernel prints for numeric attributes: an optional sign, digits, and
/// an optional fraction (`24380`, `-44000`, `102.129031250`, `-0.500000`), surrounded by
/// optional ASCII whitespace (the trailing newline). Anything else — exponents, hex, NUL
/// bytes, two numbers, a lone sign or dot — is ``SysfsParsedValue/invalid``. Digits are
/// accumulated as an integer and divided once by a power of ten, so up to 15 significant
/// digits convert exactly; further fraction digits are dropped, and an integer part beyond
/// 18 digits is invalid rather than silently rounded. `decimalExponent` shifts the decimal
/// point before the one rounding step (`-3` turns millidegrees into degrees, `1` kilopascal
/// into hectopascal), so `12376` becomes exactly the `Double` nearest `12.376`.
public enum SysfsValueParser {
    private static let maxDigits = 18
    private static let powersOfTen: [Double] = (0...maxDigits).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    /// Parses `bytes` (the whole content of one read) as a decimal times `10^decimalExponent`.
    public static func parse(_ bytes: UnsafeRawBufferPointer, decimalExponent: Int = 0) -> SysfsParsedValue {
        var i = 0
        let n = bytes.count
        while i < n, isSpace(bytes[i]) { i += 1 }
        var end = n
        while end > i, isSpace(bytes[end - 1]) { end -= 1 }
        if i == end { return .empty }

        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var significant = 0
        var scale = 0
        var seenDot = false
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: ".") {
                if seenDot { return .invalid }
                seenDot = true
            } else if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                digits += 1
                if mantissa == 0, c == UInt8(ascii: "0") {
                    if seenDot { scale += 1 }
                } else if significant < maxDigits {
                    mantissa = mantissa * 10 + Int64(c - UInt8(ascii: "0"))
                    significant += 1
                    if seenDot { scale += 1 }
                } else if !seenDot {
                    return .invalid
                }
            } else {
                return .invalid
            }
            i += 1
        }
        if digits == 0 { return .invalid }
        scale -= decimalExponent
        var value = Double(mantissa)
        while scale > maxDigits {
            value /= powersOfTen[maxDigits]
            scale -= maxDigits
        }
        while scale < -maxDigits {
            value *= powersOfTen[maxDigits]
            scale += maxDigits
        }
        value = scale >= 0 ? value / powersOfTen[scale] : value * powersOfTen[-scale]
        return .number(negative ? -value : value)
    }

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
    }
}
