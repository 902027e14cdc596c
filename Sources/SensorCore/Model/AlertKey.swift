/// Identifies one alert: a (rule, sensor) pair.
public struct AlertKey: Hashable, Sendable, Comparable {
    /// The rule's name.
    public var rule: String
    /// The sensor.
    public var sensor: SensorID

    /// The key of the alert of `rule` on `sensor`.
    public init(rule: String, sensor: SensorID) {
        self.rule = rule
        self.sensor = sensor
    }

    /// Orders by rule name, then by sensor id.
    public static func < (a: AlertKey, b: AlertKey) -> Bool {
        a.rule != b.rule ? a.rule < b.rule : a.sensor < b.sensor
    }
}
