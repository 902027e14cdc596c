/// The order people expect for ids with numbers in them: `rack2` before `rack10`
/// (runs of digits compare by value, everything else character by character).
enum NaturalOrder {
    /// Whether `a` comes before `b`; ties (`rack01`, `rack1`) fall back to plain order.
    static func less(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let (m, nextI) = digits(x, from: i), (n, nextJ) = digits(y, from: j)
                if m != n { return m.count != n.count ? m.count < n.count : m < n }
                (i, j) = (nextI, nextJ)
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value }
                i += 1
                j += 1
            }
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        return a < b
    }

    private static func isDigit(_ u: Unicode.Scalar) -> Bool { u >= "0" && u <= "9" }

    /// The digit run from `start` without leading zeros (compared by length, then text),
    /// and where it ends.
    private static func digits(_ s: [Unicode.Scalar], from start: Int) -> (String, Int) {
        var end = start
        while end < s.count, isDigit(s[end]) { end += 1 }
        var run = String(String.UnicodeScalarView(s[start..<end]))
        while run.count > 1, run.first == "0" { run.removeFirst() }
        return (run, end)
    }
}
