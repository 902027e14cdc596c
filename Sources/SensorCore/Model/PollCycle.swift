/// Everything one poll of one source produced, committed to `SensorData` as one mutation.
///
/// The rule engine first learns any sensor in `sensors` it has not seen, then evaluates
/// the samples in order, then, when `tick` is set, checks the `stale` rules of every sensor
/// in `sensors` at `time` (SPEC §6: at one instant samples come before stale ticks).
///
/// The readings are kept in one of two forms: a list of samples (a scenario, a test), or
/// ``SensorValues`` aligned with `sensors` (a sysfs poll: one reading per sensor at
/// `time`). `samples` reads either form; hot paths ask for ``values`` first.
public struct PollCycle: Sendable, Hashable {
    /// The source that was polled (`thermal`, `sim`, …).
    public var source: String
    /// The tick time of the poll; samples may carry earlier times (explicit scenario samples).
    public var time: Timestamp
    /// The source's sensors as discovered now.
    public var sensors: [SensorInfo]
    /// Whether this poll is a tick of the source's interval (stale rules are checked).
    public var tick: Bool
    /// Changes whenever the source's sensor list changes; 0 means unknown. Lets consumers
    /// skip re-learning an unchanged `sensors` list on every cycle.
    public var discovery: UInt64

    private enum Readings: Sendable, Hashable {
        case samples([Sample])
        case values(SensorValues)
    }

    private var readings: Readings

    /// A cycle of samples in time order, faults included.
    public init(
        source: String, time: Timestamp, sensors: [SensorInfo], samples: [Sample], tick: Bool = true,
        discovery: UInt64 = 0
    ) {
        self.init(source, time, sensors, .samples(samples), tick, discovery)
    }

    /// A cycle of one reading per sensor of `sensors`, in that order, all at `time`.
    public init(
        source: String, time: Timestamp, sensors: [SensorInfo], values: SensorValues, tick: Bool = true,
        discovery: UInt64 = 0
    ) {
        precondition(values.count == sensors.count, "values must align with the sensors")
        self.init(source, time, sensors, .values(values), tick, discovery)
    }

    private init(
        _ source: String, _ time: Timestamp, _ sensors: [SensorInfo], _ readings: Readings, _ tick: Bool,
        _ discovery: UInt64
    ) {
        self.source = source
        self.time = time
        self.sensors = sensors
        self.readings = readings
        self.tick = tick
        self.discovery = discovery
    }

    /// Read attempts in time order; faults included. Built on each access for a cycle of
    /// aligned ``values``; setting it replaces them.
    public var samples: [Sample] {
        get {
            switch readings {
            case .samples(let samples): return samples
            case .values(let values): return values.samples(of: sensors, at: time)
            }
        }
        set { readings = .samples(newValue) }
    }

    /// The readings when they are one per sensor of `sensors`, in order, at `time`.
    public var values: SensorValues? {
        if case .values(let values) = readings { return values }
        return nil
    }

    /// How many read attempts the cycle carries.
    public var sampleCount: Int {
        switch readings {
        case .samples(let samples): return samples.count
        case .values(let values): return values.count
        }
    }

    /// The same cycle with only the sensors at `indices` (given as `sensors`, in that order)
    /// and their readings; for aligned values only.
    func restricted(to indices: [Int], sensors: [SensorInfo]) -> PollCycle {
        guard case .values(let values) = readings else { preconditionFailure("restricted(to:) needs aligned values") }
        var part = self
        part.sensors = sensors
        part.readings = .values(values.subset(indices))
        return part
    }

    /// Cycles are equal when they carry the same readings, in whichever form.
    public static func == (a: PollCycle, b: PollCycle) -> Bool {
        a.source == b.source && a.time == b.time && a.sensors == b.sensors && a.tick == b.tick
            && a.discovery == b.discovery && (a.readings == b.readings || a.samples == b.samples)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(time)
        hasher.combine(sensors)
        hasher.combine(tick)
        hasher.combine(discovery)
        hasher.combine(samples)
    }
}
