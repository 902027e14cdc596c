/// Identifies one alert: a (rule, sensor) pair.
public struct AlertKey: Hashable, Sendable, Comparable {
    /// The rule's name.
    public var rule: String
    /// The sensor.
    public var sensor: SensorID

    public init(rule: String, sensor: SensorID) {
        self.rule = rule
        self.sensor = sensor
    }

    public static func < (a: AlertKey, b: AlertKey) -> Bool {
        a.rule != b.rule ? a.rule < b.rule : a.sensor < b.sensor
    }
}
