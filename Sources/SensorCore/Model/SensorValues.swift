public import SensorRuntime

/// One instant's readings of a source, aligned with its ``SensorList``: one slot per listed
/// sensor, in list order, all at `time`.
///
/// A slot holds a value, a fault (the value is NaN and `faults` has the reason), or nothing
/// (NaN without a reason: the sensor was not read at this instant — a scenario whose
/// sensors have samples at different times, or a stand-in tick of a hanging poll). A parsed
/// sysfs value is never NaN, so NaN can mark both. No ids are carried: with a thousand
/// sensors polled every 100 ms, copying and releasing an id string per sample (each a cache
/// miss) cost more than parsing the values.
public struct SensorValues: Sendable, Hashable {
    /// When the readings were taken.
    public var time: Timestamp
    /// The values in the quantity's unit; NaN where there is none (see `faults`).
    public private(set) var values: [Double]
    /// What is rare in a poll (a failed read, an alarm, a sleeping device), kept apart and nil
    /// in the common poll: a cycle is copied several times on its way (the model, its log,
    /// the rule engine), and each copy then retains one array rather than four collections
    /// (bench/README.md).
    private struct Exceptions: Sendable {
        var faults: [Int: ReadFault] = [:]
        var alarms: [Int: HardwareAlarms] = [:]
        var asleep: Set<Int> = []
        var states: [Int: [String]] = [:]
    }
    private var exceptions: Exceptions?

    /// Why reads failed, by position; empty when none did.
    public var faults: [Int: ReadFault] { exceptions?.faults ?? [:] }
    /// The hardware alarms seen with a successful reading (SPEC §16b), by position; only
    /// slots with one set are present, so a poll without alarms keeps it empty.
    public var alarms: [Int: HardwareAlarms] { exceptions?.alarms ?? [:] }
    /// The slots of sensors whose device sleeps (runtime suspend, SPEC §20): not read on
    /// purpose, so neither a value nor a fault; empty when nothing sleeps.
    public var asleep: Set<Int> { exceptions?.asleep ?? [] }
    /// The asserted states' words of each discrete sensor read (a BMC's, SPEC §23), by
    /// position: what it shows in place of a number; empty when none was read.
    public var states: [Int: [String]] { exceptions?.states ?? [:] }

    /// Changes the exceptions in place (moved out first, so their storage stays unique).
    private mutating func except(_ change: (inout Exceptions) -> Void) {
        var e = exceptions ?? Exceptions()
        exceptions = nil
        change(&e)
        exceptions = e
    }

    /// Readings of `values.count` sensors at `time`. Every reason in `faults` must be at a NaN.
    public init(time: Timestamp, values: [Double], faults: [Int: ReadFault] = [:]) {
        precondition(faults.keys.allSatisfy { values.indices.contains($0) && values[$0].isNaN })
        self.time = time
        self.values = values
        if !faults.isEmpty { exceptions = Exceptions(faults: faults) }
    }

    /// Empty, with room for `capacity` readings.
    public init(time: Timestamp, capacity: Int) {
        self.time = time
        values = []
        values.reserveCapacity(capacity)
    }

    /// `count` slots with nothing read (a tick without readings).
    public init(time: Timestamp, unread count: Int) {
        self.time = time
        values = Array(repeating: .nan, count: count)
    }

    /// Appends a successful reading; a NaN (raw × scale of two extremes) is not a value
    /// and is kept as a fault.
    public mutating func append(_ value: Double) {
        if value.isNaN { appendFault("not a number: NaN") } else { values.append(value) }
    }

    /// Appends a successful reading seen with these alarm files set.
    public mutating func append(_ value: Double, alarms set: HardwareAlarms) {
        if !set.isEmpty, !value.isNaN { except { [count = values.count] in $0.alarms[count] = set } }
        append(value)
    }

    /// Appends the reading of a discrete sensor (SPEC §23): its state bits as the value (what
    /// rules and the history compare), the asserted states' words (what people are shown)
    /// and the alarms its warning and critical states raise.
    public mutating func append(stateBits value: Double, words: [String], alarms set: HardwareAlarms) {
        except { [count = values.count] in $0.states[count] = words }
        append(value, alarms: set)
    }

    /// The asserted states' words of the discrete sensor read at `index`; nil when the slot
    /// holds no discrete reading.
    @inline(__always)
    public func states(at index: Int) -> [String]? { exceptions?.states[index] }

    /// Sets the alarms of the slot at `index`, which holds a value.
    public mutating func setAlarms(_ index: Int, _ set: HardwareAlarms) {
        if !set.isEmpty, !values[index].isNaN {
            except { $0.alarms[index] = set }
        } else if exceptions?.alarms.isEmpty == false {
            except { $0.alarms[index] = nil }
        }
    }

    /// The alarms seen with the reading at `index` (empty when none).
    @inline(__always)
    public func alarms(at index: Int) -> HardwareAlarms { exceptions?.alarms[index] ?? [] }

    /// Appends a failed reading.
    public mutating func appendFault(_ reason: ReadFault) {
        except { [count = values.count] in $0.faults[count] = reason }
        values.append(.nan)
    }

    /// Appends a slot with nothing read.
    public mutating func appendUnread() { values.append(.nan) }

    /// Appends the slot of a sensor left unread because its device sleeps.
    public mutating func appendAsleep() {
        except { [count = values.count] in _ = $0.asleep.insert(count) }
        values.append(.nan)
    }

    /// Whether the slot at `index` was left unread because its device sleeps.
    @inline(__always)
    public func isAsleep(_ index: Int) -> Bool { exceptions?.asleep.contains(index) == true }

    /// Takes the asleep slots of a commit that read `readings` (what sleeps now).
    mutating func takeAsleep(of readings: SensorValues) {
        if asleep != readings.asleep { except { $0.asleep = readings.asleep } }
    }

    /// Sets the slot at `index` to a reading: a value, or a fault when `fault` is given.
    public mutating func set(_ index: Int, value: Double?, fault: ReadFault?) {
        if let value, !value.isNaN {
            values[index] = value
            // Hashing only when some slot failed: a scenario sets every sample this way.
            if exceptions?.faults.isEmpty == false { except { $0.faults[index] = nil } }
        } else {
            values[index] = .nan
            except { e in
                e.faults[index] = fault ?? "not a number: NaN"
                if !e.alarms.isEmpty { e.alarms[index] = nil }
                if !e.states.isEmpty { e.states[index] = nil }
            }
        }
    }

    /// How many slots there are (the list's length).
    public var count: Int { values.count }

    /// The value read at `index`, nil if that read failed or there was none.
    @inline(__always)
    public func value(at index: Int) -> Double? {
        let v = values[index]
        return v.isNaN ? nil : v
    }

    /// Whether the slot at `index` holds a reading (a value or a fault).
    @inline(__always)
    public func wasRead(_ index: Int) -> Bool { !values[index].isNaN || exceptions?.faults[index] != nil }

    /// The reading at `index` as a sample of `sensor`, nil if nothing was read.
    public func sample(at index: Int, of sensor: SensorID) -> Sample? {
        if let v = value(at: index) { return Sample(sensor: sensor, time: time, value: v) }
        if let reason = exceptions?.faults[index] { return Sample(sensor: sensor, time: time, fault: reason) }
        return nil
    }

    /// The readings as samples of `sensors` (the list they are aligned with), in list order;
    /// slots with nothing read are left out. For display and tests, not hot paths.
    public func samples(of sensors: [SensorInfo]) -> [Sample] {
        precondition(sensors.count == values.count, "values must align with their sensors")
        return values.indices.compactMap { sample(at: $0, of: sensors[$0].id) }
    }

    /// Equal when the same slots hold the same values and the same faults (the NaN markers
    /// compare equal here).
    public static func == (a: SensorValues, b: SensorValues) -> Bool {
        a.time == b.time && a.faults == b.faults && a.alarms == b.alarms && a.asleep == b.asleep && a.states == b.states
            && a.values.count == b.values.count
            && zip(a.values, b.values).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    /// Hashes the time, faults, alarms, sleep flags and values (every NaN alike), in step with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(faults)
        hasher.combine(alarms)
        hasher.combine(asleep)
        hasher.combine(states)
        for v in values { hasher.combine(v.isNaN ? nil : v) }
    }
}
