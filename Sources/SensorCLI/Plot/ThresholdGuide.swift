import SensorCore

/// What a threshold rule draws on a panel: a line at its threshold `T`, and the hysteresis
/// band between `T` and where the condition becomes false again (`T − H` for `above`,
/// `T + H` for `below`). Rules without a value threshold (`rise`, `fall`, `stale`) have none.
struct ThresholdGuide: Equatable, Sendable {
    /// The threshold.
    var threshold: Double
    /// Where the condition becomes false again; equal to `threshold` without hysteresis.
    var clearsAt: Double
    /// `above` or `below`.
    var above: Bool

    /// The guide of a rule, or nil when its condition has no value threshold.
    init?(_ condition: Condition) {
        switch condition {
        case .above(let t, let h): (threshold, clearsAt, above) = (t, t - h, true)
        case .below(let t, let h): (threshold, clearsAt, above) = (t, t + h, false)
        case .rise, .fall, .stale: return nil
        }
    }

    /// Whether it has a hysteresis band.
    var hasBand: Bool { clearsAt != threshold }

    /// The line's label: `cpu-hot > 80 °C (clears ≤ 75)`.
    func label(rule: String, unit: String) -> String {
        let t = EventFormatter.display(threshold)
        var text = "\(rule) \(above ? ">" : "<") \(t) \(unit)"
        if hasBand { text += " (clears \(above ? "≤" : "≥") \(EventFormatter.display(clearsAt)))" }
        return text
    }
}
