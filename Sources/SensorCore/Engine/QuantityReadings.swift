/// The latest reading of every sensor of one quantity, as a Sendable snapshot.
public struct QuantityReadings: Sendable, Equatable {
    /// Grows by one with every poll cycle committed for this quantity.
    public internal(set) var revision: UInt64 = 0
    /// The latest read attempt of each sensor (a fault is kept as a fault, not a value).
    public internal(set) var latest: [SensorID: Sample] = [:]
    /// What is known about each sensor that has been committed.
    public internal(set) var sensors: [SensorID: SensorInfo] = [:]

    public init() {}

    /// The latest successful value of a sensor, nil if its last read failed or never came.
    public func value(of id: SensorID) -> Double? { latest[id]?.value }
}
