/// Parses the decimal text of a sysfs attribute without allocating.
///
/// Accepts what the kernel prints for numeric attributes: an optional sign, digits, and
/// an optional fraction (`24380`, `-44000`, `102.129031250`, `-0.500000`), surrounded by
/// optional ASCII whitespace (the trailing newline). Anything else — exponents, hex, NUL
/// bytes, two numbers, a lone sign or dot — is ``SysfsParsedValue/invalid``. Significant
/// digits are accumulated as an integer (trailing zeros only when a nonzero digit follows,
/// so `0.001000000` is the integer 1) and divided once by a power of ten, so a value of up to
/// 15 significant digits whose decimal point ends up at most 22 places from the integer
/// converts exactly; further fraction digits beyond 18 significant are dropped, and an
/// integer part beyond 18 significant digits is invalid rather than silently rounded.
/// `decimalExponent` shifts the decimal point before the one rounding step (`-3` turns
/// millidegrees into degrees, `1` kilopascal into hectopascal), so `12376` becomes exactly
/// the `Double` nearest `12.376`.
public enum SysfsValueParser {
    private static let maxDigits = 18
    /// 10^22 is the largest power of ten a `Double` holds exactly.
    private static let maxExactPower = 22
    private static let powersOfTen: [Double] = (0...maxExactPower).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    /// Parses `bytes` (the whole content of one read) as a decimal times `10^decimalExponent`.
    ///
    /// `decimalExponent` must lie in `-300...250`, so that every accepted text gives a finite value.
    public static func parse(_ bytes: UnsafeRawBufferPointer, decimalExponent: Int = 0) -> SysfsParsedValue {
        precondition((-300...250).contains(decimalExponent), "decimalExponent \(decimalExponent) out of range")
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
        // The text's value is mantissa × 10^exponent, once the zeros held back are placed.
        var mantissa: Int64 = 0
        var exponent = 0
        var significant = 0
        var integerDigits = 0
        var zerosBeforeDot = 0
        var zerosAfterDot = 0
        var digits = 0
        var seenDot = false
        var truncated = false
        while i < end {
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: ".") {
                if seenDot { return .invalid }
                seenDot = true
                continue
            }
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return .invalid }
            digits += 1
            let d = Int64(c - UInt8(ascii: "0"))
            if !seenDot, integerDigits > 0 || d != 0 {
                integerDigits += 1
                if integerDigits > maxDigits { return .invalid }
            }
            if truncated { continue }
            if d == 0 {
                if mantissa == 0 {
                    if seenDot { exponent -= 1 }
                } else if seenDot {
                    zerosAfterDot += 1
                } else {
                    zerosBeforeDot += 1
                }
                continue
            }
            let held = zerosBeforeDot + zerosAfterDot
            guard significant + held < maxDigits else {
                // Only fraction digits get here: the integer part is at most maxDigits long.
                truncated = true
                continue
            }
            for _ in 0..<held { mantissa *= 10 }
            mantissa = mantissa * 10 + d
            significant += held + 1
            exponent -= zerosAfterDot + (seenDot ? 1 : 0)
            zerosBeforeDot = 0
            zerosAfterDot = 0
        }
        if digits == 0 { return .invalid }
        exponent += zerosBeforeDot + decimalExponent
        var value = Double(mantissa)
        while exponent < -maxExactPower {
            value /= powersOfTen[maxExactPower]
            exponent += maxExactPower
        }
        while exponent > maxExactPower {
            value *= powersOfTen[maxExactPower]
            exponent -= maxExactPower
        }
        value = exponent <= 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return .number(negative ? -value : value)
    }

    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
    }
}
