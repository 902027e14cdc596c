/// One sensor as the status file shows it (SPEC §19).
public struct StatusSensor: Sendable, Hashable {
    /// The sensor's id, as text.
    public var id: String
    /// The sensor's label; empty when it has none.
    public var label: String
    /// The quantity's name (`temperature`, `fan`, …).
    public var quantity: String
    /// The unit its values are in (`°C`, `rpm`, …); empty for a discrete state.
    public var unit: String
    /// The latest successful reading; nil before the first.
    public var value: Double?
    /// When ``value`` was read, Unix seconds; nil before the first.
    public var time: Double?
    /// Whether the latest read succeeded.
    public var ok: Bool
    /// Why the latest read failed; nil when it did not.
    public var error: String?
    /// Whether its device sleeps (runtime suspend, SPEC §20): not read on purpose, which is
    /// no failure; ``value`` is the reading from before it slept, if any.
    public var asleep: Bool
    /// The asserted states' words of a discrete sensor (a BMC's, SPEC §23), shown in place of
    /// a value (``value`` is nil); nil for every other sensor, and while it cannot be read.
    public var state: [String]?
    /// The hardware's own limits (SPEC §16): `max` (warning) and `crit`, where known. Not
    /// read yet, so always nil; the file already has the key, so readers need not change.
    public var limits: StatusLimits?

    /// A sensor entry of the given fields.
    public init(
        id: String, label: String, quantity: String, unit: String, value: Double?, time: Double?, ok: Bool,
        error: String?, limits: StatusLimits? = nil, asleep: Bool = false, state: [String]? = nil
    ) {
        self.state = state
        self.asleep = asleep
        self.id = id
        self.label = label
        self.quantity = quantity
        self.unit = unit
        self.value = value
        self.time = time
        self.ok = ok
        self.error = error
        self.limits = limits
    }
}
