import SensorRuntime
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
    /// `alarm: true`: true while any alarm file of the sensor reads 1 (SPEC §16b).
    case alarm

    /// The kind, without parameters.
    public var kind: ConditionKind {
        switch self {
        case .above: return .above
        case .below: return .below
        case .rise: return .rise
        case .fall: return .fall
        case .stale: return .stale
        case .predict: return .predict
        case .alarm: return .alarm
        }
    }

    /// The threshold events report: `above`/`below`/`by` (also a prediction's), the stale
    /// duration in seconds, or 1 (an alarm file's set value) for `alarm`.
    public var threshold: Double {
        switch self {
        case .above(let t, _), .below(let t, _): return t
        case .rise(let by, _), .fall(let by, _): return by
        case .stale(let d): return d.seconds
        case .predict(let p): return p.threshold
        // What the alarm file reads when it is set.
        case .alarm: return 1
        }
    }
}
