/// The one condition a rule tests (SPEC §5).
public enum Condition: Hashable, Sendable {
    /// True when `v > threshold`; false again when `v <= threshold - hysteresis`.
    case above(Double, hysteresis: Double)
    /// True when `v < threshold`; false again when `v >= threshold + hysteresis`.
    case below(Double, hysteresis: Double)
    /// True when `v - min(values in [t-within, t]) >= by`.
    case rise(by: Double, within: Duration)
    /// True when `max(values in [t-within, t]) - v >= by`.
    case fall(by: Double, within: Duration)
    /// True when no successful reading came for the duration or longer.
    case stale(Duration)
    /// True when the least-squares line over the last `over` is heading past a threshold
    /// `within` ahead (SPEC §10).
    case predict(PredictCondition)

    /// The kind, without parameters.
    public var kind: ConditionKind {
        switch self {
        case .above: return .above
        case .below: return .below
        case .rise: return .rise
        case .fall: return .fall
        case .stale: return .stale
        case .predict: return .predict
        }
    }

    /// The threshold events report: `above`/`below`/`by` (also a prediction's), or the stale
    /// duration in seconds.
    public var threshold: Double {
        switch self {
        case .above(let t, _), .below(let t, _): return t
        case .rise(let by, _), .fall(let by, _): return by
        case .stale(let d): return d.seconds
        case .predict(let p): return p.threshold
        }
    }
}
