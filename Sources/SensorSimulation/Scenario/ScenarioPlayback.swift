public import SensorConfig
public import SensorCore
public import SensorRuntime

/// Plays every sensor of a scenario as one time-ordered stream, optionally looping.
///
/// Samples come out in time order; at equal times in sensor (file) order. Looping repeats
/// the scenario with period `duration`: round `k` has its samples at `t + k·duration`, and
/// the sample at exactly `duration` is left out because round `k+1`'s sample at 0 takes its
/// place. A scenario of zero duration never loops.
public struct ScenarioPlayback: Sendable {
    private let initial: [FeedCursor]
    private var cursors: [FeedCursor]
    private let period: Int64
    private let loops: Bool
    private var offset: Int64 = 0

    /// Positioned before the scenario's first sample.
    public init(scenario: Scenario, loop: Bool) {
        period = scenario.duration.nanoseconds
        let end: Duration? = loop && period > 0 ? scenario.duration : nil
        initial = scenario.sensors.indices.map { FeedCursor(sensorAt: $0, of: scenario, endingBefore: end) }
        cursors = initial
        // A round without samples would make looping spin without ever producing one.
        loops = end != nil && initial.contains { $0.nextTime != .max }
    }

    /// Appends every sample not yet played whose time is ≤ `limit`, in order.
    public mutating func play(through limit: Timestamp, into samples: inout [Sample]) {
        let ids = initial.map(\.sensor)
        play(through: limit) { k, time, value, fault, _ in
            samples.append(
                fault.map { Sample(sensor: ids[k], time: time, fault: $0) }
                    ?? Sample(sensor: ids[k], time: time, value: value!))
        }
    }

    /// Hands every reading not yet played whose time is ≤ `limit` to `emit`, in order, with
    /// the index of its sensor in the scenario (no id: nothing is copied per sample) and the
    /// latched alarms seen at it (SPEC §16b).
    public mutating func play(
        through limit: Timestamp,
        _ emit: (_ sensor: Int, Timestamp, _ value: Double?, _ fault: ReadFault?, _ alarms: HardwareAlarms) -> Void
    ) {
        let limit = limit.nanoseconds
        if !scheduled { scheduleAll() }
        while true {
            guard let time = groups.first?.time else {
                guard loops, offset &+ period <= limit else { return }
                offset &+= period
                cursors = initial
                scheduleAll()
                continue
            }
            guard offset &+ time <= limit else { return }
            var sensors = popGroup()
            while groups.first?.time == time { sensors.append(contentsOf: popGroup()) }
            if zip(sensors, sensors.dropFirst()).contains(where: { $0 > $1 }) { sensors.sort() }
            // Sensors of one step are due again together: their next instant is gathered
            // here and filed once.
            var nextTime = Int64.max
            var next: [Int] = []
            swap(&next, &spare)
            for k in sensors {
                guard let reading = cursors[k].nextAlarmedReading(offset: offset) else { continue }
                emit(k, reading.time, reading.value, reading.fault.map { .other($0.text) }, reading.alarms)
                let t = cursors[k].nextTime
                guard t != .max else { continue }
                if t != nextTime {
                    if !next.isEmpty {
                        file(next, at: nextTime)
                        next = []
                    }
                    nextTime = t
                }
                next.append(k)
            }
            file(next, at: nextTime)
            sensors.removeAll(keepingCapacity: true)
            spare = sensors
        }
    }

    // MARK: - The schedule
    //
    // The sensors due together, as groups in a min-heap by time: a heap step per instant,
    // not per sample (a heap entry per sample was the largest cost of `simulate` after the
    // rules; bench/README.md), and sensors that share a step share their instants. Groups
    // due at one time are taken together (no map from time to group: hashing the time twice
    // an instant was a measurable share of a cycle with few sensors). Within an instant the
    // sensors come in index order, the file order the contract asks for.

    private struct Group: Sendable {
        var time: Int64
        var sensors: [Int]
    }

    private var groups: [Group] = []
    private var scheduled = false
    /// An instant's list once played, emptied: the next instant's is built in it, so a step
    /// of the common scenario (every sensor due again together) allocates nothing.
    private var spare: [Int] = []

    private mutating func scheduleAll() {
        groups = []
        for k in cursors.indices where cursors[k].nextTime != .max { file([k], at: cursors[k].nextTime) }
        scheduled = true
    }

    /// Files `sensors` (in index order) as due at `time`.
    private mutating func file(_ sensors: [Int], at time: Int64) {
        guard !sensors.isEmpty else { return }
        var i = groups.count
        groups.append(Group(time: time, sensors: sensors))
        while i > 0, time < groups[(i - 1) / 2].time {
            groups.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    /// Takes the earliest group's sensors out of the heap.
    private mutating func popGroup() -> [Int] {
        let last = groups.removeLast()
        guard !groups.isEmpty else { return last.sensors }
        let top = groups[0].sensors
        var i = 0
        while true {
            let left = 2 * i + 1
            guard left < groups.count else { break }
            let child = left + 1 < groups.count && groups[left + 1].time < groups[left].time ? left + 1 : left
            guard groups[child].time < last.time else { break }
            groups[i] = groups[child]
            i = child
        }
        groups[i] = last
        return top
    }
}
