import SensorRuntime

/// The threshold one (rule, sensor) alert uses, as the rule resolved it for that sensor: the
/// number, the hardware limit it came from, and a `rise`/`fall`/`predict` window.
///
/// ``text(unit:)`` is the one way the threshold is written for a person: the journal's
/// message, `status`, `history` and `notify --test` all say it through here, so they agree
/// with each other and with the rule that actually ran (a limit rule's `100 °C (crit)`, not
/// its `otherwise`).
public struct AlertThreshold: Hashable, Sendable {
    /// The kind of condition, which decides how the number reads (a duration for `stale`).
    public var condition: ConditionKind
    /// `above`/`below`/`by` (also a prediction's), the `stale` duration in seconds, or 1 for
    /// `alarm`; the number events carry as `threshold`.
    public var value: Double
    /// The limit the threshold came from (`crit`), or which alarm an `alarm` rule saw; nil
    /// for a number given in the rule (and `otherwise`).
    public var limit: String?
    /// The window of `rise`/`fall` and a prediction's `within`, in seconds; nil for others.
    public var within: Double?

    /// A threshold as given.
    public init(condition: ConditionKind, value: Double, limit: String? = nil, within: Double? = nil) {
        self.condition = condition
        self.value = value
        self.limit = limit
        self.within = within
    }

    /// The threshold of a rule's condition (already resolved for a sensor, SPEC §16), with
    /// the limit it came from.
    public init(_ condition: Condition, limit: String?) {
        var within: Double?
        switch condition {
        case .rise(_, let w), .fall(_, let w): within = w.seconds
        case .predict(let p): within = p.within.seconds
        case .above, .below, .stale, .alarm: within = nil
        }
        self.init(condition: condition.kind, value: condition.threshold, limit: limit, within: within)
    }

    /// The threshold for a person, in the sensor's `unit`: `100 °C (crit)` or `95 °C` for
    /// `above`/`below`, `10 °C within 1m` for `rise`/`fall` (the change and its window),
    /// `90 °C (crit) within 10m` for `predict`, `5s` for `stale`, and the alarm's name
    /// (`crit`, `alarm`) for `alarm`. Numbers are rounded as everything a person reads is
    /// (``NumberText/display(_:)``); outside text is not escaped here (the caller shows
    /// the whole line with ``DisplayText``).
    public func text(unit: String) -> String {
        let amount = unit.isEmpty ? NumberText.display(value) : NumberText.display(value) + " " + unit
        let named = limit.map { " (\($0))" } ?? ""
        let window = within.map { " within " + NumberText.duration(seconds: $0) } ?? ""
        switch condition {
        case .above, .below: return amount + named
        case .rise, .fall: return amount + window
        case .predict: return amount + named + window
        case .stale: return NumberText.duration(seconds: value)
        case .alarm: return limit ?? "alarm"
        }
    }
}
