import SensorCore
import SensorRuntime

/// What a threshold rule draws on a panel: a line at its threshold `T`, and the hysteresis
/// band between `T` and where the condition becomes false again (`T − H` for `above`,
/// `T + H` for `below`). A predict rule's threshold is drawn alike (its predicted line is
/// what crosses it). Rules without a value threshold (`rise`, `fall`, `stale`) have none.
struct ThresholdGuide: Equatable, Sendable {
    /// The threshold.
    var threshold: Double
    /// Where the condition becomes false again; equal to `threshold` without hysteresis.
    var clearsAt: Double
    /// `above` or `below`.
    var above: Bool
    /// Whether a predict rule's: the predicted value, not the reading, is compared.
    var predicted = false

    /// The guide of a rule, or nil when its condition has no value threshold.
    init?(_ condition: Condition) {
        switch condition {
        case .above(let t, let h): (threshold, clearsAt, above) = (t, t - h, true)
        case .below(let t, let h): (threshold, clearsAt, above) = (t, t + h, false)
        case .predict(let p):
            let above = p.direction == .above
            (threshold, clearsAt, self.above) = (
                p.threshold, above ? p.threshold - p.hysteresis : p.threshold + p.hysteresis, above
            )
            predicted = true
        case .rise, .fall, .stale, .alarm: return nil
        }
    }

    /// Whether it has a hysteresis band.
    var hasBand: Bool { clearsAt != threshold }

    /// The line's label: `cpu-hot > 80 °C (clears ≤ 75)`; `cpu-trend: predicted > 90 °C`.
    func label(rule: String, unit: String) -> String {
        let t = NumberText.display(threshold)
        var text = "\(rule)\(predicted ? ": predicted" : "") \(above ? ">" : "<") \(t) \(unit)"
        if hasBand { text += " (clears \(above ? "≤" : "≥") \(NumberText.display(clearsAt)))" }
        return text
    }
}
