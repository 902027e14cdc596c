/// What is known about a sensor besides its readings: id, label, quantity and limits.
public struct SensorInfo: Hashable, Sendable {
    /// The sensor's stable id.
    public var id: SensorID
    /// A human label (thermal zone `type`, hwmon `tempN_label`, scenario `label`); may be empty.
    public var label: String
    /// What the sensor measures; fixes the unit.
    public var quantity: Quantity
    /// The driver's (or scenario's) limits, read at discovery (SPEC §16).
    public var limits: SensorLimits

    /// A sensor of the given fields; by default no label and no limits.
    public init(id: SensorID, label: String = "", quantity: Quantity, limits: SensorLimits = .none) {
        self.id = id
        self.label = label
        self.quantity = quantity
        self.limits = limits
    }

    /// The unit of this sensor's values.
    public var unit: String { quantity.unit }
}
