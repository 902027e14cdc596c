/// The ticks of a time axis that starts at 0: a "nice" step (1, 2, 5, 10, 15, 30 s;
/// 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h; 1, 2, 7 d …), the smallest that keeps the
/// number of intervals within what fits, and labels a person reads at a glance
/// (`30 s`, `1 min 30 s`, `2 h`, `1 d 6 h`).
struct TimeTicks: Equatable, Sendable {
    /// Seconds between ticks.
    let step: Double
    /// The tick times, in seconds, from 0 to the span (both included where on a step).
    let values: [Double]

    /// The unit of the step, which is the smallest unit a label shows.
    var unit: TimeUnit { TimeUnit(step: step) }

    /// Steps in seconds, ascending; beyond the list, whole weeks in 1-2-5 multiples.
    static let steps: [Double] = [
        0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
        1, 2, 5, 10, 15, 30,
        60, 120, 300, 600, 900, 1800,
        3600, 7200, 10800, 21600, 43200,
        86400, 172_800, 604_800,
    ]

    /// Chooses ticks for a run of `span` seconds with at most `maxTicks` intervals.
    init(span: Double, maxTicks: Int) {
        let span = span > 0 && span.isFinite ? span : 1
        let limit = Double(max(1, maxTicks))
        var step = Self.steps.first { span / $0 <= limit }
        if step == nil {
            // Longer than what 1-week steps cover: weeks × 2, 5, 10, 20, 50 …
            var weeks = 2.0, k = 0
            while span / (weeks * 604_800) > limit {
                k += 1
                weeks = [2.0, 5.0, 10.0][k % 3] * ValueTicks.power10(k / 3)
            }
            step = weeks * 604_800
        }
        let chosen = step!
        self.step = chosen
        let count = Int((span / chosen + 1e-9).rounded(.down))
        values = (0...count).map { Double($0) * chosen }
    }

    /// A tick's label: `0`, then the time in units from the largest that fits down to the
    /// step's unit, zero parts left out (`1 h 30 min`, `2 h`, `45 s`, `0.5 s`).
    func label(_ seconds: Double) -> String {
        if seconds == 0 { return "0" }
        if step < 1 { return ValueTicks.fixed(seconds, decimals: Self.decimals(of: step)) + " s" }
        var rest = Int64(seconds.rounded())
        var parts: [String] = []
        for u in TimeUnit.allCases.reversed() where u.seconds >= unit.seconds {
            let size = Int64(u.seconds)
            let n = rest / size
            rest %= size
            if n > 0 { parts.append("\(n) \(u.rawValue)") }
        }
        return parts.isEmpty ? "0" : parts.joined(separator: " ")
    }

    private static func decimals(of step: Double) -> Int {
        var d = 0, s = step
        while d < 6, abs(s - s.rounded()) > 1e-9 {
            s *= 10
            d += 1
        }
        return d
    }
}
