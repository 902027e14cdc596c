public import SensorRuntime

/// A sensor whose device appeared or went while the daemon runs (SPEC §20): one entry each,
/// `sensor ID (LABEL) appeared` or `… gone`.
public struct SensorPresence: Hashable, Sendable {
    /// When the discovery that saw it ran, in run time.
    public var time: Timestamp
    /// The sensor, as the discovery that last listed it knew it.
    public var sensor: SensorInfo
    /// True when it appeared, false when it went.
    public var appeared: Bool

    /// A sensor that appeared (`appeared` true) or went at `time`.
    public init(time: Timestamp, sensor: SensorInfo, appeared: Bool) {
        self.time = time
        self.sensor = sensor
        self.appeared = appeared
    }

    /// The message of a sensor that appeared or went (SPEC §20); one line, as an event's.
    public var message: String {
        let p = self
        var s = "sensor \(p.sensor.id.rawValue)"
        if !p.sensor.label.isEmpty { s += " (\(p.sensor.label))" }
        s += p.appeared ? " appeared" : " gone"
        return DisplayText.escaped(s)
    }
}
