/// A rule's threshold named by a limit of the sensor instead of a number (SPEC §16):
/// `above: "crit"`, `above: { limit: "crit", margin: 5, otherwise: 90 }`, `below` with a
/// lower limit, and the same in `predict`.
///
/// The rule's condition holds the threshold of a sensor without the limit (`otherwise`, or
/// a placeholder); ``Rule/resolved(for:)`` gives each sensor its own numbers.
public struct RuleLimit: Hashable, Sendable {
    /// The limit's name (`crit`, `max`, `min`, …).
    public var name: String
    /// How far inside the limit the threshold lies (≥ 0): below it for `above`, over it for `below`.
    public var margin: Double
    /// The threshold of a sensor without the limit; without it, such a sensor is not selected.
    public var otherwise: Double?
    /// The rule-level `hysteresis` where the rule sets one (0 included); nil: the driver's
    /// `_hyst`, else none.
    public var hysteresis: Double?

    /// A limit reference of the given fields; `margin` is in the sensor's unit, nil `otherwise` leaves a sensor without the limit unselected.
    public init(name: String, margin: Double = 0, otherwise: Double? = nil, hysteresis: Double? = nil) {
        self.name = name
        self.margin = margin
        self.otherwise = otherwise
        self.hysteresis = hysteresis
    }

    /// The threshold and hysteresis for a sensor with `limits` guarding against values
    /// `above` (else below) it, and the limit used (nil: `otherwise`); nil when the sensor
    /// has neither the limit nor an `otherwise` applies.
    public func resolve(_ limits: SensorLimits, above: Bool) -> (threshold: Double, hysteresis: Double, limit: String?)?
    {
        if let value = limits[name] {
            let threshold = above ? value - margin : value + margin
            if let hysteresis { return (threshold, hysteresis, name) }
            // The driver's clear point, kept at the same distance from the threshold.
            let clear = limits[name + "_hyst"].map { abs(value - $0) } ?? 0
            return (threshold, clear, name)
        }
        guard let otherwise else { return nil }
        return (otherwise, hysteresis ?? 0, nil)
    }
}
