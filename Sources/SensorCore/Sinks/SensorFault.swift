public import SensorRuntime

/// A sensor that started failing to read, or recovered.
public struct SensorFault: Hashable, Sendable {
    /// When the read failed or recovered, in run time.
    public var time: Timestamp
    /// The sensor.
    public var sensor: SensorInfo
    /// Why the read failed; nil when the sensor recovered.
    public var reason: String?

    /// A fault of the given fields; a nil `reason` is a recovery.
    public init(time: Timestamp, sensor: SensorInfo, reason: String?) {
        self.time = time
        self.sensor = sensor
        self.reason = reason
    }

    /// The level of its entry and line: warning while failing, notice on recovery.
    public var level: LogLevel { reason == nil ? .notice : .warning }

    /// The message of a sensor fault or recovery; one line, as an event's.
    public var message: String {
        let f = self
        var s = "sensor \(f.sensor.id.rawValue)"
        if !f.sensor.label.isEmpty { s += " (\(f.sensor.label))" }
        if let reason = f.reason {
            s += " read failed: \(reason)"
        } else {
            s += " reads again"
        }
        return DisplayText.escaped(s)
    }
}
