/// The daemon's last 10 minutes of each sensor (SPEC §22): 120 five-second buckets a
/// sensor, in one flat array for all of a source's sensors, overwritten in a circle.
///
/// Bounded by the number of sensors, not by time: 16 bytes a bucket (the bucket's number
/// and `Float` min, max and last), 1.9 KiB a sensor, 1.9 MB at a thousand. `Float` holds a
/// sensor's value to 7 digits; a bucket is turned back into the shortest decimal that
/// reads as that `Float`, so `45.5` stays `45.5`, not `45.500000000001`.
struct LiveHistoryRing: Sendable {
    private struct Slot: Sendable {
        /// The bucket's number (Unix seconds / 5); `Int32.min`: empty.
        var number: Int32 = .min
        var min: Float = 0
        var max: Float = 0
        var last: Float = 0
    }

    private var slots: [Slot]

    /// Rings for `count` sensors, empty.
    init(count: Int) { slots = Array(repeating: Slot(), count: count * LiveBucket.count) }

    /// Takes `value` of sensor `index` read at Unix time `time`.
    mutating func record(_ index: Int, _ value: Double, at time: Double) {
        let number = Int32(truncatingIfNeeded: LiveBucket.start(of: time) / LiveBucket.seconds)
        let at = index * LiveBucket.count + Int(UInt32(bitPattern: number) % UInt32(LiveBucket.count))
        let v = Float(value)
        if slots[at].number == number {
            slots[at].min = Swift.min(slots[at].min, v)
            slots[at].max = Swift.max(slots[at].max, v)
            slots[at].last = v
        } else {
            slots[at] = Slot(number: number, min: v, max: v, last: v)
        }
    }

    /// Sensor `index`'s buckets of the 10 minutes up to Unix time `now`, oldest first.
    func buckets(_ index: Int, now: Double) -> [LiveBucket] {
        let newest = Int32(truncatingIfNeeded: LiveBucket.start(of: now) / LiveBucket.seconds)
        let oldest = newest - Int32(LiveBucket.count) + 1
        let base = index * LiveBucket.count
        return slots[base..<base + LiveBucket.count]
            .filter { $0.number != .min && $0.number >= oldest && $0.number <= newest }
            .sorted { $0.number < $1.number }
            .map {
                LiveBucket(
                    time: Int64($0.number) * LiveBucket.seconds, min: Self.decimal($0.min), max: Self.decimal($0.max),
                    last: Self.decimal($0.last))
            }
    }

    /// Copies sensor `from`'s ring of `other` to sensor `to` of this one (a rediscovery
    /// that keeps the sensor).
    mutating func copy(_ from: Int, of other: LiveHistoryRing, to: Int) {
        let n = LiveBucket.count
        slots.replaceSubrange(to * n..<(to + 1) * n, with: other.slots[from * n..<(from + 1) * n])
    }

    /// The `Double` whose shortest text is the `Float`'s.
    private static func decimal(_ f: Float) -> Double { Double(f.description) ?? Double(f) }
}
