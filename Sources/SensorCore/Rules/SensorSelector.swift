/// Which sensors a rule applies to: an id glob and/or a quantity (both must match).
public struct SensorSelector: Hashable, Sendable {
    /// Glob on the sensor id; nil matches every id.
    public var sensor: Glob?
    /// Required quantity; nil matches every quantity.
    public var quantity: Quantity?

    /// A selector of the given parts; with neither, it matches every sensor.
    public init(sensor: Glob? = nil, quantity: Quantity? = nil) {
        self.sensor = sensor
        self.quantity = quantity
    }

    /// Whether the rule applies to this sensor.
    public func matches(_ info: SensorInfo) -> Bool {
        if let quantity, quantity != info.quantity { return false }
        if let sensor, !sensor.matches(info.id.rawValue) { return false }
        return true
    }
}
