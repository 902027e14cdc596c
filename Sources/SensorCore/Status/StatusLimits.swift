/// A sensor's hardware limits in the status file (SPEC §16, §19): `--check` takes its
/// warning and critical levels from them.
public struct StatusLimits: Sendable, Hashable {
    /// The level the hardware calls too warm (hwmon `max`): the check's warning level.
    public var max: Double?
    /// The critical level (hwmon `crit`).
    public var crit: Double?

    public init(max: Double? = nil, crit: Double? = nil) {
        self.max = max
        self.crit = crit
    }
}
