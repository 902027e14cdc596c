/// The widths of `top`'s columns for a screen `width` cells wide: the sensor column takes
/// what the others leave; the sparkline and the state grow on wide screens.
struct TopColumns: Sendable, Hashable {
    var sensor: Int
    var value = 9
    var spark: Int
    var min = 5
    var max = 5
    var limits = 7
    var state: Int

    init(width: Int) {
        // The sparkline's cells divide the 120 buckets of 10 minutes evenly.
        spark = width >= 150 ? 40 : width >= 110 ? 30 : width >= 96 ? 20 : 10
        let rest = Swift.max(30, width - (value + spark + min + max + limits + 6))
        sensor = Swift.max(20, rest * 5 / 9)
        state = rest - sensor
    }

    /// Where each column starts.
    var starts: [Int] {
        var at = 0
        var out: [Int] = []
        for w in [sensor, value, spark, min, max, limits, state] {
            out.append(at)
            at += w + 1
        }
        return out
    }
}
