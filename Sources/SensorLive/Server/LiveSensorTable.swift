import SensorCore
import SensorRuntime

/// What the stream knows of every sensor, kept in step with ``SensorData`` at each wake-up:
/// the last value, health and alarms sent for, each sensor's history ring, and which sensors
/// changed, appeared or went since the last look.
///
/// Arrays aligned with each source's list, compared index by index: a look at a thousand
/// sensors of which none changed builds nothing and allocates nothing. A rediscovery (a new
/// list) carries every kept sensor's state and ring over by id.
struct LiveSensorTable: Sendable {
    /// What changed at one look.
    struct Delta: Equatable {
        /// Ids whose value, health, limits or alarms changed (also those that appeared).
        var changed: [String] = []
        var appeared: [String] = []
        var gone: [String] = []

        var isEmpty: Bool { changed.isEmpty && gone.isEmpty }
    }

    private struct Tracked: Sendable {
        var list: SensorList
        /// The latest successful value; NaN: none.
        var values: [Double]
        /// When that value was read (run time, ns).
        var goodTimes: [Int64]
        /// The time of the latest successful read taken into the ring (run time, ns): a
        /// later one is a new sample.
        var readTimes: [Int64]
        /// Alarms (low 16 bits), asleep (bit 16), ever read (bit 17).
        var flags: [UInt32]
        var faults: [String?]
        /// The asserted states' words of each discrete sensor (SPEC §23) at its latest read,
        /// by index; empty for a source without any (all but a BMC's).
        var states: [Int: [String]] = [:]
        var ring: LiveHistoryRing

        init(list: SensorList) {
            self.list = list
            let n = list.count
            values = Array(repeating: .nan, count: n)
            goodTimes = Array(repeating: 0, count: n)
            readTimes = Array(repeating: Int64.min, count: n)
            flags = Array(repeating: 0, count: n)
            faults = Array(repeating: nil, count: n)
            ring = LiveHistoryRing(count: n)
        }
    }

    private static let asleepBit: UInt32 = 1 << 16
    private static let attemptedBit: UInt32 = 1 << 17

    /// Each source's sensors, by source key.
    private var sources: [String: Tracked] = [:]
    /// Where each sensor is.
    private var where_: [String: (source: String, index: Int)] = [:]
    /// Unix time of the run's time zero.
    let started: Double

    init(started: Double) { self.started = started }

    /// How many sensors are listed.
    var count: Int { where_.count }

    /// Looks at the model now: stores what is new, records new samples into the rings, and
    /// says what changed since the last look.
    mutating func update(_ readings: [SourceReadings], faulty: [SensorID: SensorFault]) -> Delta {
        var delta = Delta()
        var seen = Set<String>()
        for source in readings {
            let key = source.list.source
            seen.insert(key)
            if sources[key]?.list !== source.list { adopt(source.list, delta: &delta) }
            compare(source, faulty: faulty, delta: &delta)
        }
        for key in sources.keys where !seen.contains(key) {
            for info in sources[key]!.list.sensors {
                where_[info.id.rawValue] = nil
                delta.gone.append(info.id.rawValue)
            }
            sources[key] = nil
        }
        return delta
    }

    /// Takes a source's new list: kept sensors carry their state over (changed when their
    /// label, quantity or limits did), new ones appear, missing ones go.
    private mutating func adopt(_ list: SensorList, delta: inout Delta) {
        let key = list.source
        var next = Tracked(list: list)
        let old = sources[key]
        for (i, info) in list.sensors.enumerated() {
            let id = info.id.rawValue
            if let old, let j = old.list.positions[info.id] {
                next.values[i] = old.values[j]
                next.goodTimes[i] = old.goodTimes[j]
                next.readTimes[i] = old.readTimes[j]
                next.flags[i] = old.flags[j]
                next.faults[i] = old.faults[j]
                next.states[i] = old.states[j]
                next.ring.copy(j, of: old.ring, to: i)
                if old.list.sensors[j] != info { delta.changed.append(id) }
            } else {
                delta.appeared.append(id)
                delta.changed.append(id)
            }
            where_[id] = (key, i)
        }
        if let old {
            for info in old.list.sensors where list.positions[info.id] == nil {
                where_[info.id.rawValue] = nil
                delta.gone.append(info.id.rawValue)
            }
        }
        sources[key] = next
    }

    /// Compares a source's readings with what is kept, index by index.
    private mutating func compare(_ source: SourceReadings, faulty: [SensorID: SensorFault], delta: inout Delta) {
        let key = source.list.source
        guard var t = sources.removeValue(forKey: key) else { return }
        let anyFaulty = !faulty.isEmpty
        let sensors = source.list.sensors
        for i in sensors.indices {
            let value = source.goodValue(at: i) ?? .nan
            let readTime = source.time(at: i).nanoseconds
            let asleep = source.isAsleep(at: i)
            var flags = UInt32(source.latest.alarms(at: i).rawValue)
            if asleep { flags |= Self.asleepBit }
            if asleep || source.wasAttempted(at: i) { flags |= Self.attemptedBit }
            let fault = anyFaulty ? faulty[sensors[i].id]?.reason : nil
            if readTime != t.readTimes[i], source.isUp(at: i) {
                t.readTimes[i] = readTime
                t.ring.record(i, value, at: started + Timestamp(nanoseconds: readTime).seconds)
            }
            // Looked up only for a discrete sensor: a thousand others cost no hashing.
            let discrete = sensors[i].quantity == .state
            let words = discrete ? source.latest.states(at: i) : nil
            let same =
                (value == t.values[i] || (value.isNaN && t.values[i].isNaN)) && flags == t.flags[i]
                && fault == t.faults[i]
                && (!discrete || words == t.states[i])
            if !value.isNaN { t.goodTimes[i] = source.goodTime(at: i).nanoseconds }
            guard !same else { continue }
            if discrete { t.states[i] = words }
            t.values[i] = value
            t.flags[i] = flags
            t.faults[i] = fault
            delta.changed.append(sensors[i].id.rawValue)
        }
        sources[key] = t
    }

    /// The sensor as the stream shows it; nil when it is not listed.
    func sensor(_ id: String) -> LiveSensor? {
        guard let (key, i) = where_[id], let t = sources[key] else { return nil }
        let info = t.list.sensors[i]
        let read = t.values[i].isNaN ? nil : t.values[i]
        let attempted = t.flags[i] & Self.attemptedBit != 0
        // A discrete sensor is not a value (SPEC §23): its states' words stand for it.
        let discrete = info.quantity == .state
        return LiveSensor(
            id: id, label: info.label, quantity: info.quantity.rawValue, unit: info.unit, value: discrete ? nil : read,
            time: read == nil ? nil : started + Timestamp(nanoseconds: t.goodTimes[i]).seconds,
            ok: attempted && t.faults[i] == nil, error: t.faults[i] ?? (attempted ? nil : "not read yet"),
            limits: info.limits.values, alarms: HardwareAlarms(rawValue: UInt16(t.flags[i] & 0xFFFF)).list,
            asleep: t.flags[i] & Self.asleepBit != 0, state: discrete && t.faults[i] == nil ? t.states[i] : nil)
    }

    /// The latest value of a sensor, nil when none.
    func value(of id: String) -> Double? {
        guard let (key, i) = where_[id], let v = sources[key]?.values[i], !v.isNaN else { return nil }
        return v
    }

    /// Every listed sensor's id, sorted.
    var ids: [String] { where_.keys.sorted() }

    /// A sensor's buckets of the 10 minutes up to Unix time `now`, oldest first.
    func history(_ id: String, now: Double) -> [LiveBucket] {
        guard let (key, i) = where_[id], let t = sources[key] else { return [] }
        return t.ring.buckets(i, now: now)
    }
}
