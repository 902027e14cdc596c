/// Everything one poll of one source produced, committed to `SensorData` as one mutation.
///
/// The rule engine first learns any sensor in `sensors` it has not seen, then evaluates
/// `samples` in order, then, when `tick` is set, checks the `stale` rules of every sensor in
/// `sensors` at `time` (SPEC §6: at one instant samples come before stale ticks).
public struct PollCycle: Sendable, Hashable {
    /// The source that was polled (`thermal`, `sim`, …).
    public var source: String
    /// The tick time of the poll; samples may carry earlier times (explicit scenario samples).
    public var time: Timestamp
    /// The source's sensors as discovered now.
    public var sensors: [SensorInfo]
    /// Read attempts in time order; faults included.
    public var samples: [Sample]
    /// Whether this poll is a tick of the source's interval (stale rules are checked).
    public var tick: Bool
    /// Changes whenever the source's sensor list changes; 0 means unknown. Lets consumers
    /// skip re-learning an unchanged `sensors` list on every cycle.
    public var discovery: UInt64

    public init(
        source: String, time: Timestamp, sensors: [SensorInfo], samples: [Sample], tick: Bool = true,
        discovery: UInt64 = 0
    ) {
        self.source = source
        self.time = time
        self.sensors = sensors
        self.samples = samples
        self.tick = tick
        self.discovery = discovery
    }
}
