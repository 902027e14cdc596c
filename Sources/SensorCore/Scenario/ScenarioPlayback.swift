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
            samples.append(fault.map { Sample(sensor: ids[k], time: time, fault: $0) }
                ?? Sample(sensor: ids[k], time: time, value: value!))
        }
    }

    /// Hands every reading not yet played whose time is ≤ `limit` to `emit`, in order, with
    /// the index of its sensor in the scenario (no id: nothing is copied per sample) and the
    /// latched alarms seen at it (SPEC §16b).
    public mutating func play(
        through limit: Timestamp,
        _ emit: (_ sensor: Int, Timestamp, _ value: Double?, _ fault: String?, _ alarms: HardwareAlarms) -> Void
    ) {
        let limit = limit.nanoseconds
        if !heapReady { rebuildHeap() }
        while true {
            guard let top = heap.first else {
                guard loops, offset &+ period <= limit else { return }
                offset &+= period
                cursors = initial
                rebuildHeap()
                continue
            }
            guard offset &+ top.time <= limit else { return }
            let k = top.index
            guard let reading = cursors[k].nextAlarmedReading(offset: offset) else {
                popTop()
                continue
            }
            emit(k, reading.time, reading.value, reading.fault, reading.alarms)
            let next = cursors[k].nextTime
            if next == .max { popTop() } else { replaceTop(with: Entry(time: next, index: k)) }
        }
    }

    // MARK: - The merge heap
    //
    // A min-heap of (next time, sensor index): picking the next sample costs O(log n), not a
    // scan of every sensor (1000 sensors at a 10 ms step made the scan the poll's main cost).
    // Ties go to the lower index, which is the file order the contract asks for.

    private struct Entry: Sendable {
        var time: Int64
        var index: Int

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : index < other.index
        }
    }

    private var heap: [Entry] = []
    private var heapReady = false

    private mutating func rebuildHeap() {
        heap = cursors.indices.compactMap { k in
            cursors[k].nextTime == .max ? nil : Entry(time: cursors[k].nextTime, index: k)
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        heapReady = true
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func replaceTop(with entry: Entry) {
        heap[0] = entry
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        let count = heap.count
        while true {
            let left = 2 * i + 1
            guard left < count else { return }
            var child = left
            if left + 1 < count, heap[left + 1].precedes(heap[left]) { child = left + 1 }
            guard heap[child].precedes(heap[i]) else { return }
            heap.swapAt(i, child)
            i = child
        }
    }
}
