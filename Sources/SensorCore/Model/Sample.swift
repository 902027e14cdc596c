public import SensorRuntime

/// One read attempt of one sensor: a value, or a fault with its reason.
///
/// A fault is not a value: rules never evaluate a threshold on it, and `stale` treats the
/// sensor as not updated (SPEC §4).
public struct Sample: Hashable, Sendable {
    /// Which sensor was read.
    public var sensor: SensorID
    /// When it was read (scenario time in `simulate`, time since start in `run`).
    public var time: Timestamp
    /// The value in the quantity's unit, or nil when the read failed.
    public var value: Double?
    /// Why the read failed (`EIO`, `not a number: "abc"`), nil on success.
    public var fault: ReadFault?

    /// A successful reading.
    public init(sensor: SensorID, time: Timestamp, value: Double) {
        self.sensor = sensor
        self.time = time
        self.value = value
        self.fault = nil
    }

    /// A failed reading.
    public init(sensor: SensorID, time: Timestamp, fault: ReadFault) {
        self.sensor = sensor
        self.time = time
        self.value = nil
        self.fault = fault
    }
}
