/// Parses and formats the duration strings of configuration and scenario files:
/// `"250ms"`, `"1s"`, `"1.5s"`, `"5m"`, `"2h"`, combinations such as `"1h30m"`, and `"0s"`.
///
/// Parsing is exact decimal arithmetic on whole nanoseconds (never through `Double`), so
/// `"0.1s"` is exactly 100 000 000 ns and boundaries compare equal where they should.
public enum DurationParser {
    /// Units from the largest down; a longer spelling before its prefix (`ms` before `m`).
    private static let units: [(name: String, nanoseconds: Int64)] = [
        ("d", 86_400_000_000_000), ("h", 3_600_000_000_000), ("ms", 1_000_000),
        ("m", 60_000_000_000), ("s", 1_000_000_000), ("us", 1_000), ("µs", 1_000), ("ns", 1),
    ]
    private static let unitList = "ns, us, ms, s, m, h or d"

    /// Parses one or more `<decimal><unit>` parts, largest unit first (`"1h30m"`), or a
    /// bare `"0"`. Units: `ns`, `us` (`µs`), `ms`, `s`, `m`, `h`, `d`.
    ///
    /// - Throws: ``SyntaxError`` for empty or negative text, a missing or unknown unit,
    ///   units out of order, a value finer than a nanosecond, or one too long for `Int64`
    ///   nanoseconds (about 292 years).
    public static func parse(_ text: String) throws(SyntaxError) -> Duration {
        .nanoseconds(try parseNanoseconds(text))
    }

    /// Like ``parse(_:)``, in whole nanoseconds.
    public static func parseNanoseconds(_ text: String) throws(SyntaxError) -> Int64 {
        guard !text.isEmpty else { throw SyntaxError(message: "empty duration") }
        if text == "0" { return 0 }
        if text.hasPrefix("-") { throw SyntaxError(message: "must not be negative") }
        var rest = Substring(text)
        var total: Int64 = 0
        var lastUnit = Int64.max
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty else {
                throw SyntaxError(message: "expected a number, found \"\(rest.prefix(1))\"")
            }
            rest = rest.dropFirst(number.count)
            let unitText = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
            guard !unitText.isEmpty else { throw SyntaxError(message: "missing unit (use \(unitList))") }
            guard let unit = units.first(where: { $0.name == unitText }) else {
                throw SyntaxError(message: "unknown unit \"\(unitText)\" (use \(unitList))")
            }
            rest = rest.dropFirst(unitText.count)
            guard unit.nanoseconds < lastUnit else {
                throw SyntaxError(message: "units must go from the largest to the smallest, each once")
            }
            lastUnit = unit.nanoseconds
            let part = try scaled(number, by: unit.nanoseconds)
            let (sum, overflow) = total.addingReportingOverflow(part)
            guard !overflow else { throw SyntaxError(message: "too long") }
            total = sum
        }
        return total
    }

    /// `decimal × scale` exactly, for a plain decimal such as `1.5` (no sign, no exponent).
    ///
    /// Also reads CSV times in seconds (`scale` 10⁹) without floating-point rounding.
    package static func scaled(_ decimal: Substring, by scale: Int64) throws(SyntaxError) -> Int64 {
        let parts = decimal.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count > 1 ? parts[1] : ""
        guard !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || !fraction.isEmpty
        else {
            throw SyntaxError(message: "\"\(decimal)\" is not a number")
        }
        while fraction.last == "0" { fraction = fraction.dropLast() }
        guard let w = Int64(whole) else { throw SyntaxError(message: "too long") }
        let (wholePart, o1) = w.multipliedReportingOverflow(by: scale)
        guard !o1 else { throw SyntaxError(message: "too long") }
        guard !fraction.isEmpty else { return wholePart }
        // A fraction of more than 18 significant digits cannot be whole nanoseconds of any unit here.
        guard fraction.count <= 18, let f = Int64(fraction) else {
            throw SyntaxError(message: "finer than a nanosecond")
        }
        var power: Int64 = 1
        for _ in 0..<fraction.count { power *= 10 }
        let (product, o2) = f.multipliedReportingOverflow(by: scale)
        guard !o2, product % power == 0 else { throw SyntaxError(message: "finer than a nanosecond") }
        let (sum, o3) = wholePart.addingReportingOverflow(product / power)
        guard !o3 else { throw SyntaxError(message: "too long") }
        return sum
    }

    /// The shortest text ``parse(_:)`` reads back as `duration`: `"1h30m"`, `"1.5s"`,
    /// `"250ms"`, `"0s"`. Sub-nanosecond parts are dropped.
    public static func format(_ duration: Duration) -> String {
        var ns = duration.nanoseconds
        guard ns != 0 else { return "0s" }
        var text = ""
        if ns < 0 {
            text = "-"
            ns = ns == .min ? .max : -ns
        }
        let hours = ns / 3_600_000_000_000
        let minutes = ns / 60_000_000_000 % 60
        let rest = ns % 60_000_000_000
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest == 0 { return text }
        if hours == 0 && minutes == 0 && rest < 1_000_000_000 {
            if rest % 1_000_000 == 0 { return text + "\(rest / 1_000_000)ms" }
            if rest % 1_000 == 0 { return text + "\(rest / 1_000)us" }
            if rest < 1_000 { return text + "\(rest)ns" }
        }
        return text + decimalSeconds(rest) + "s"
    }

    /// `nanoseconds` (not negative) as seconds in decimal, exact, without trailing zeros
    /// (`12`, `0.25`, `3.000000001`).
    package static func decimalSeconds(_ nanoseconds: Int64) -> String {
        var fraction = String(nanoseconds % 1_000_000_000)
        let whole = String(nanoseconds / 1_000_000_000)
        guard fraction != "0" else { return whole }
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return whole + "." + fraction
    }
}

extension Character {
    /// `0`…`9` only (`isNumber` also accepts other scripts' digits and fractions).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
