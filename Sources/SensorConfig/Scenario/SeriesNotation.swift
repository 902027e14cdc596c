public import SensorRuntime

/// promtool's expanding notation for a scenario sensor's `series` (SPEC §18): one value per
/// `step` from 0, written as space-separated terms.
///
/// `a` is one sample; `a+bxn` is n + 1 samples a, a+b, …, a+n·b; `a-bxn` counts down;
/// `axn` repeats a n + 1 times; `_` is one failed read and `_xn` n failed reads.
public enum SeriesNotation {
    /// The values, in order (nil: a failed read).
    ///
    /// - Parameter limit: the most samples the series may give; the expansion stops with an
    ///   error beyond it (so `1x1000000000` is refused before it fills memory).
    /// - Throws: ``SyntaxError`` for an empty series, a term that is not one of the forms,
    ///   a count that is not a whole number, a value that is not a finite number, or more
    ///   than `limit` samples.
    public static func expand(_ text: String, limit: Int) throws(SyntaxError) -> [Double?] {
        let terms = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard !terms.isEmpty else {
            throw SyntaxError(message: "empty series (expected terms such as \"50x3 95 50x7\")")
        }
        var values: [Double?] = []
        for (index, term) in terms.enumerated() {
            func fail(_ why: String) -> SyntaxError { SyntaxError(message: "term \(index + 1) \"\(term)\": \(why)") }
            let (head, count) = try split(term, fail: fail)
            let added = count.map { head == "_" ? $0 : $0 + 1 } ?? 1
            guard added <= limit - values.count else { throw fail("gives more than \(limit) samples in all") }
            if head == "_" {
                values.append(contentsOf: repeatElement(nil, count: added))
                continue
            }
            let (start, increment) = try startAndIncrement(head, fail: fail)
            if increment != nil && count == nil {
                throw fail("an increment needs a count, as in \"\(head)x4\"")
            }
            let b = increment ?? 0
            for i in 0..<added {
                let v = start + Double(i) * b
                guard v.isFinite else { throw fail("value out of range") }
                values.append(v)
            }
        }
        return values
    }

    /// How many samples a well-formed series gives, without expanding it (nil: malformed,
    /// or more than `Int.max`); what an error about its length reports.
    public static func count(_ text: String) -> Int? {
        var total = 0
        for term in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let (head, n) = try? split(term, fail: { SyntaxError(message: $0) }) else { return nil }
            let added = n.map { head == "_" ? $0 : $0 &+ 1 } ?? 1
            let (sum, overflow) = total.addingReportingOverflow(added)
            guard !overflow, added >= 0 else { return nil }
            total = sum
        }
        return total
    }

    /// The term without its `xN` and N, if it has one.
    private static func split(
        _ term: Substring, fail: (String) -> SyntaxError
    ) throws(SyntaxError) -> (Substring, Int?) {
        guard let x = term.lastIndex(of: "x") else { return (term, nil) }
        let head = term[..<x], tail = term[term.index(after: x)...]
        guard !head.isEmpty else { throw fail("expected a value before \"x\"") }
        guard !tail.isEmpty, tail.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(tail) else {
            throw fail("expected a whole count after \"x\", as in \"\(head)x4\"")
        }
        return (head, n)
    }

    /// `a`, `a+b` or `a-b` as numbers; a sign right after an exponent's `e` belongs to it.
    private static func startAndIncrement(
        _ head: Substring, fail: (String) -> SyntaxError
    ) throws(SyntaxError) -> (Double, Double?) {
        var signIndex: Substring.Index?
        var i = head.index(after: head.startIndex)
        while i < head.endIndex {
            let c = head[i], before = head[head.index(before: i)]
            if (c == "+" || c == "-") && before != "e" && before != "E" {
                signIndex = i
                break
            }
            i = head.index(after: i)
        }
        guard let signIndex else { return (try number(head, fail: fail), nil) }
        let start = try number(head[..<signIndex], fail: fail)
        let magnitude = try number(head[head.index(after: signIndex)...], fail: fail)
        return (start, head[signIndex] == "-" ? -magnitude : magnitude)
    }

    private static func number(_ text: Substring, fail: (String) -> SyntaxError) throws(SyntaxError) -> Double {
        // Double() also reads hexadecimal and "nan"/"inf": only decimal numbers are values here.
        let decimal = text.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
        guard decimal, let value = Double(text), value.isFinite else {
            throw fail("\"\(text)\" is not a number")
        }
        return value
    }
}
