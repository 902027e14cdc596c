/// One entry of the configuration's top-level `derived` array (SPEC §11).
public struct DerivedSensorConfiguration: Sendable, Hashable {
    /// `derived:<id>`.
    public var id: SensorID
    /// The configured label, or empty.
    public var label: String
    /// What it computes, from which inputs (full sensor ids, never derived ones).
    public var formula: DerivedFormula
    /// The oldest an input's latest read attempt may be and still count (inclusive).
    public var maxAge: Duration

    /// The default `maxAge`.
    public static let defaultMaxAge = Duration.seconds(60)

    /// A derived sensor of the given fields; an input whose latest read attempt is older than `maxAge` does not count.
    public init(id: SensorID, label: String = "", formula: DerivedFormula, maxAge: Duration = defaultMaxAge) {
        self.id = id
        self.label = label
        self.formula = formula
        self.maxAge = maxAge
    }
}
