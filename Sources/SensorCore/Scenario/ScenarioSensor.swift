/// One sensor of a scenario; its id becomes `sim:<id>`.
public struct ScenarioSensor: Sendable, Hashable {
    /// Where the sensor's values come from.
    public enum Feed: Sendable, Hashable {
        /// Explicit `(time, value)` pairs (from `samples` or a CSV file); nil = failed read.
        case samples([TimedValue])
        /// Generated at every step from `start` through `segments`, plus `noise`.
        case generated(start: Double, segments: [Segment], noise: Double)
    }

    /// The id without the `sim:` prefix.
    public var id: String
    public var quantity: Quantity
    public var label: String
    public var feed: Feed

    public init(id: String, quantity: Quantity, label: String = "", feed: Feed) {
        self.id = id
        self.quantity = quantity
        self.label = label
        self.feed = feed
    }

    /// What the rest of the program knows about this sensor.
    public var info: SensorInfo {
        SensorInfo(id: SensorID(source: SourceKind.simulated.idPrefix, name: id), label: label, quantity: quantity)
    }
}

/// An explicit sample of a scenario: a time and a value, or nil for a failed read.
public struct TimedValue: Sendable, Hashable {
    public var time: Timestamp
    public var value: Double?

    public init(time: Timestamp, value: Double?) {
        self.time = time
        self.value = value
    }
}
