import SensorCore
import SensorRuntime

/// A rule in a few words for the plot's legend: `above 80, hysteresis 3, for 3s · warning`.
enum RuleSummary {
    /// The rule's condition and timing, and its severity.
    static func text(_ rule: Rule) -> String {
        var parts: [String] = []
        if let limit = rule.limit {
            // Each sensor has its own threshold: the summary names the limit.
            var side = "above"
            if case .below = rule.condition { side = "below" }
            if case .predict(let p) = rule.condition { side = "predict " + p.direction.rawValue }
            var text = "\(side) \(limit.name)"
            if limit.margin > 0 { text += (side.hasSuffix("above") ? " − " : " + ") + NumberText.display(limit.margin) }
            if let o = limit.otherwise { text += " (otherwise \(NumberText.display(o)))" }
            parts.append(text)
            if let h = limit.hysteresis, h > 0 { parts.append("hysteresis \(NumberText.display(h))") }
        } else {
            parts += conditionParts(rule.condition)
        }
        if rule.holdFor > .zero { parts.append("for \(NumberText.duration(seconds: rule.holdFor.seconds))") }
        if rule.clearFor > .zero { parts.append("clearFor \(NumberText.duration(seconds: rule.clearFor.seconds))") }
        if let r = rule.repeatEvery { parts.append("repeat \(NumberText.duration(seconds: r.seconds))") }
        return parts.joined(separator: ", ") + " · " + rule.severity.rawValue
    }

    private static func conditionParts(_ condition: Condition) -> [String] {
        var parts: [String] = []
        switch condition {
        case .above(let t, let h):
            parts.append("above \(NumberText.display(t))")
            if h > 0 { parts.append("hysteresis \(NumberText.display(h))") }
        case .below(let t, let h):
            parts.append("below \(NumberText.display(t))")
            if h > 0 { parts.append("hysteresis \(NumberText.display(h))") }
        case .rise(let by, let within):
            parts.append("rise by \(NumberText.display(by)) within \(NumberText.duration(seconds: within.seconds))")
        case .fall(let by, let within):
            parts.append("fall by \(NumberText.display(by)) within \(NumberText.duration(seconds: within.seconds))")
        case .stale(let d):
            parts.append("stale \(NumberText.duration(seconds: d.seconds))")
        case .alarm:
            parts.append("hardware alarm")
        case .predict(let p):
            parts.append(
                "predict \(p.direction.rawValue) \(NumberText.display(p.threshold)) within "
                    + "\(NumberText.duration(seconds: p.within.seconds)) over \(NumberText.duration(seconds: p.over.seconds))"
            )
            if p.hysteresis > 0 { parts.append("hysteresis \(NumberText.display(p.hysteresis))") }
        }
        return parts
    }
}
