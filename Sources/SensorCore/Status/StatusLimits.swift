/// A sensor's hardware limits in the status file (SPEC §16, §19): every plausible limit it
/// has (`min` of a fan, `lcrit` of a voltage, `crit_hyst`…); `--check` takes its warning and
/// critical levels from `max` and `crit`.
public struct StatusLimits: Sendable, Hashable {
    /// The limits by name, in the sensor's unit.
    public var values: [String: Double]

    /// The limits as given.
    public init(values: [String: Double]) {
        self.values = values
    }

    /// A sensor with only these (either may be nil).
    public init(max: Double? = nil, crit: Double? = nil) {
        var values: [String: Double] = [:]
        values["max"] = max
        values["crit"] = crit
        self.init(values: values)
    }

    /// The level the hardware calls too warm (hwmon `max`): the check's warning level.
    public var max: Double? { values["max"] }
    /// The critical level (hwmon `crit`).
    public var crit: Double? { values["crit"] }

    /// The names in the order `sensors` shows them (lower limits, then upper ones, each
    /// followed by its `_hyst`).
    public var names: [String] { SensorLimits.ordered(values.keys) }
}

extension StatusLimits {
    /// Every plausible limit of a sensor (SPEC §16); nil when it has none.
    init?(_ limits: SensorLimits) {
        guard !limits.values.isEmpty else { return nil }
        self.init(values: limits.values)
    }
}
