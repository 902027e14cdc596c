public import SensorRuntime
public import SensorCore

/// One sensor of a scenario; its id becomes `sim:<id>`, unless it already holds a `:` (a
/// recording's `thermal:thermal_zone0`, SPEC §15): then it is the sensor id as it stands.
public struct ScenarioSensor: Sendable, Hashable {
    /// Where the sensor's values come from.
    public enum Feed: Sendable, Hashable {
        /// Explicit `(time, value)` pairs (from `samples` or a CSV file); nil = failed read.
        case samples([TimedValue])
        /// Generated at every step from `start` through `segments`, plus `noise`.
        case generated(start: Double, segments: [Segment], noise: Double)
    }

    /// The id as the scenario gives it (`cpu` for `sim:cpu`, or a whole id with a `:`).
    public var id: String
    /// What the sensor measures; fixes the unit of its values.
    public var quantity: Quantity
    /// The label events show; may be empty.
    public var label: String
    /// Where its values come from.
    public var feed: Feed
    /// The sensor's limits (`limits: { crit: 100, crit_hyst: 95 }`), taken as they are (SPEC §16).
    public var limits: [String: Double]
    /// Latched hardware alarms (`alarms: [[t, "crit"], …]`, SPEC §16b), by scenario time: each
    /// is seen with the sensor's first successful reading at or after its time.
    public var alarms: [Timestamp: HardwareAlarms]

    /// A scenario sensor of the given fields.
    public init(
        id: String, quantity: Quantity, label: String = "", feed: Feed, limits: [String: Double] = [:],
        alarms: [Timestamp: HardwareAlarms] = [:]
    ) {
        self.alarms = alarms
        self.limits = limits
        self.id = id
        self.quantity = quantity
        self.label = label
        self.feed = feed
    }

    /// What the rest of the program knows about this sensor.
    public var info: SensorInfo {
        SensorInfo(id: sensorID, label: label, quantity: quantity, limits: SensorLimits(values: limits))
    }

    /// The sensor id: `sim:<id>`, or `id` itself when it holds a `:`.
    public var sensorID: SensorID {
        id.contains(":") ? SensorID(id) : SensorID(source: SourceKind.simulated.idPrefix, name: id)
    }
}

/// An explicit sample of a scenario: a time and a value, or nil for a failed read.
public struct TimedValue: Sendable, Hashable {
    /// Scenario time of the sample.
    public var time: Timestamp
    /// The value; nil for a failed read.
    public var value: Double?

    /// A sample of the given time and value.
    public init(time: Timestamp, value: Double?) {
        self.time = time
        self.value = value
    }

    /// Why a sample at `time` cannot follow one at `previous` (nil: it can): one sensor's
    /// sample times strictly increase (SPEC §9), compared in whole nanoseconds.
    ///
    /// - Parameters:
    ///   - shown: the time as the message shows it (the file's own text, or seconds).
    ///   - what: `sample` or `row`.
    static func orderProblem(_ time: Timestamp, shown: String, after previous: Timestamp?, what: String) -> String? {
        guard let previous, time <= previous else { return nil }
        if time < previous { return "time \(shown) is before the previous \(what)'s \(previous.seconds)" }
        return "time \(shown) is the same as the previous \(what)'s; one sensor's sample times must strictly increase"
    }
}
