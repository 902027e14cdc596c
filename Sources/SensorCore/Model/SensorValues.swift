/// One poll's readings in compact form: one per sensor of the cycle's list, in list order,
/// all taken at the cycle's time.
///
/// This is what a sysfs poll produces. Unlike `[Sample]` it carries no sensor ids: with a
/// thousand sensors polled every 100 ms, copying and releasing an id string per sample
/// (each a cache miss) cost more than parsing the values.
public struct SensorValues: Sendable, Hashable {
    /// The values in the quantity's unit; `.nan` where the read failed (see `faults`).
    public private(set) var values: [Double]
    /// Why reads failed, by position; empty when all succeeded.
    public private(set) var faults: [Int: String]

    /// Readings of `values.count` sensors. A parsed sysfs value is never NaN, so NaN can
    /// mark a failed read; every NaN needs a reason in `faults` and vice versa.
    public init(values: [Double], faults: [Int: String] = [:]) {
        precondition(faults.keys.allSatisfy { values.indices.contains($0) && values[$0].isNaN })
        self.values = values
        self.faults = faults
    }

    /// Empty, with room for `capacity` readings.
    public init(capacity: Int) {
        values = []
        values.reserveCapacity(capacity)
        faults = [:]
    }

    /// Appends a successful reading; a NaN (raw × scale of two extremes) is not a value
    /// and is kept as a fault.
    public mutating func append(_ value: Double) {
        if value.isNaN { appendFault("not a number: NaN") } else { values.append(value) }
    }

    /// Appends a failed reading.
    public mutating func appendFault(_ reason: String) {
        faults[values.count] = reason
        values.append(.nan)
    }

    /// How many sensors were read.
    public var count: Int { values.count }

    /// The value read at `index`, nil if that read failed.
    @inline(__always)
    public func value(at index: Int) -> Double? {
        let v = values[index]
        return v.isNaN ? nil : v
    }

    /// The readings at `indices`, in that order.
    public func subset(_ indices: [Int]) -> SensorValues {
        var out = SensorValues(capacity: indices.count)
        for i in indices {
            if let reason = faults[i] { out.appendFault(reason) } else { out.values.append(values[i]) }
        }
        return out
    }

    /// The readings as samples of `sensors` (the list they are aligned with) at `time`.
    public func samples(of sensors: [SensorInfo], at time: Timestamp) -> [Sample] {
        precondition(sensors.count == values.count, "values must align with their sensors")
        var out: [Sample] = []
        out.reserveCapacity(values.count)
        for i in values.indices {
            if let reason = faults[i] {
                out.append(Sample(sensor: sensors[i].id, time: time, fault: reason))
            } else {
                out.append(Sample(sensor: sensors[i].id, time: time, value: values[i]))
            }
        }
        return out
    }

    /// Equal when the same reads succeeded with the same values and the same failed for the
    /// same reasons (the NaN markers of failed reads compare equal here).
    public static func == (a: SensorValues, b: SensorValues) -> Bool {
        a.faults == b.faults && a.values.count == b.values.count
            && zip(a.values, b.values).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(faults)
        for v in values { hasher.combine(v.isNaN ? nil : v) }
    }
}
