public import SensorRuntime

/// What ``SensorData`` knows now of one source's sensors: each sensor's latest read (a
/// value, a fault, or none yet) and its latest *successful* read, which a fault does not
/// replace (the metrics file shows the last good value next to `sensor_up 0`).
///
/// Kept cheap for the common case, a poll in which every read succeeds: then the latest
/// successful readings are the latest readings, and a commit stores one array, shared, in
/// O(1). Only when a read fails or a slot goes unread are the successful readings kept
/// apart, slot by slot.
public struct SourceReadings: Sendable {
    /// The latest successful readings when they are not simply ``latest``.
    struct LastGood: Sendable {
        /// NaN where no read has succeeded yet.
        var values: [Double]
        var times: [Timestamp]
    }

    /// The sensors, as the source listed them at its last discovery.
    public internal(set) var list: SensorList
    /// The newest reading of each listed sensor (value, fault or none yet).
    public internal(set) var latest: SensorValues
    /// Each slot's time when not all are at `latest.time` (a scenario's sparse instants).
    var times: [Timestamp]?
    /// How many of the list's sensors are in ``SensorData/faulty``.
    var faultyCount = 0
    /// nil while every slot's latest read succeeded in one commit.
    var lastGood: LastGood?

    /// A new list: nothing read yet, except what `previous` knew of a sensor that is still
    /// listed (its latest successful reading survives a rediscovery).
    init(list: SensorList, previous: SourceReadings?) {
        self.list = list
        latest = SensorValues(time: list.discovered, unread: list.count)
        var good = LastGood(
            values: Array(repeating: .nan, count: list.count),
            times: Array(repeating: list.discovered, count: list.count))
        if let previous {
            for (i, info) in list.sensors.enumerated() {
                guard let j = previous.list.positions[info.id], let v = previous.goodValue(at: j) else { continue }
                good.values[i] = v
                good.times[i] = previous.goodTime(at: j)
            }
        }
        lastGood = good
    }

    /// The time of the latest reading at `index` (value or fault).
    public func time(at index: Int) -> Timestamp { times?[index] ?? latest.time }

    /// Whether the sensor at `index` sleeps now (its device is runtime-suspended, SPEC §20).
    public func isAsleep(at index: Int) -> Bool { latest.isAsleep(index) }

    /// Whether the latest read at `index` succeeded.
    public func isUp(at index: Int) -> Bool { latest.value(at: index) != nil }

    /// Whether `index` was ever read, or has a successful reading from before a rediscovery.
    public func wasAttempted(at index: Int) -> Bool { latest.wasRead(index) || goodValue(at: index) != nil }

    /// The latest successful reading at `index`, nil if none has succeeded.
    public func goodValue(at index: Int) -> Double? {
        guard let lastGood else { return latest.value(at: index) }
        let v = lastGood.values[index]
        return v.isNaN ? nil : v
    }

    /// When the latest successful reading at `index` was taken (meaningless without one).
    public func goodTime(at index: Int) -> Timestamp { lastGood?.times[index] ?? time(at: index) }

    /// The latest successful readings, NaN where none: shares the latest readings' storage
    /// when every latest read succeeded.
    public var goodValues: [Double] { lastGood?.values ?? latest.values }

    /// Stores a commit's readings as the latest.
    mutating func merge(_ readings: SensorValues) {
        // Every slot read: each NaN is a fault.
        let unread = readings.values.reduce(0) { $0 + ($1.isNaN ? 1 : 0) } - readings.faults.count
        if unread == 0 && readings.faults.isEmpty {
            latest = readings
            times = nil
            lastGood = nil
            return
        }
        var good =
            lastGood
            ?? LastGood(values: latest.values, times: times ?? Array(repeating: latest.time, count: latest.count))
        if unread == 0 {
            for i in readings.values.indices where !readings.values[i].isNaN {
                good.values[i] = readings.values[i]
                good.times[i] = readings.time
            }
            latest = readings
            times = nil
        } else {
            var slotTimes = times ?? Array(repeating: latest.time, count: readings.count)
            for i in readings.values.indices where readings.wasRead(i) {
                let v = readings.value(at: i)
                latest.set(i, value: v, fault: readings.faults[i])
                slotTimes[i] = readings.time
                if let v {
                    good.values[i] = v
                    good.times[i] = readings.time
                }
            }
            latest.takeAsleep(of: readings)
            latest.time = max(latest.time, readings.time)
            times = slotTimes
        }
        lastGood = good
    }
}
