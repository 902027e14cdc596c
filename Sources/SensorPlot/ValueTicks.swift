#if canImport(Glibc)
import Glibc
#endif

/// The ticks of a value axis: a step of 1, 2 or 5 × 10ⁿ, the smallest that keeps the
/// number of intervals within `maxTicks`, and the axis range widened to whole steps, so
/// the top and bottom of a panel carry a labelled tick.
struct ValueTicks: Equatable, Sendable {
    /// The value between ticks.
    let step: Double
    /// The axis range: from the lowest tick to the highest.
    let low: Double, high: Double
    /// The tick values, ascending.
    let values: [Double]
    /// Decimals every label shows (those of the step).
    let decimals: Int

    /// Chooses ticks covering `low…high` with at most `maxTicks` intervals.
    init(low: Double, high: Double, maxTicks: Int) {
        var low = low.isFinite ? low : 0, high = high.isFinite ? high : 1
        if high < low { swap(&low, &high) }
        if high - low < 1e-9 * max(1, abs(high)) {
            // A flat line: a range of ±1 around it (or ±1 % for large values).
            let pad = max(1, abs(high) * 0.01)
            low -= pad
            high += pad
        }
        let limit = Double(max(1, maxTicks))
        var exponent = Int((log10((high - low) / limit)).rounded(.down))
        var chosen = 0.0
        search: while true {
            for mantissa in [1.0, 2.0, 5.0] {
                let step = mantissa * Self.power10(exponent)
                let n = (high / step).rounded(.up) - (low / step).rounded(.down)
                if n <= limit {
                    chosen = step
                    break search
                }
            }
            exponent += 1
        }
        step = chosen
        let first = (low / chosen).rounded(.down), last = (high / chosen).rounded(.up)
        self.low = first * chosen
        self.high = last * chosen
        values = stride(from: first, through: last, by: 1).map { $0 * chosen }
        decimals = max(0, -exponent)
    }

    /// A tick's label with the step's decimals (`1005`, `2.5`, `0.05`).
    func label(_ v: Double) -> String { Self.fixed(v, decimals: decimals) }

    /// `v` with exactly `decimals` decimals, without Foundation's formatter; no `-0`.
    static func fixed(_ v: Double, decimals: Int) -> String {
        let scale = power10(decimals)
        let n = Int64((v * scale).rounded())
        if decimals == 0 { return String(n) }
        let digits = String(n.magnitude)
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -decimals)
        return (n < 0 ? "-" : "") + padded[..<cut] + "." + padded[cut...]
    }

    static func power10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<abs(n) { p *= 10 }
        return n < 0 ? 1 / p : p
    }
}
