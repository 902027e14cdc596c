/// The samples of a sliding time window, oldest first: a ring that takes samples at the back
/// and lets them go at either end, for ``MonotonicWindow`` (which drops from both) and
/// ``TrendWindow`` (from the front).
///
/// A ring rather than an array trimmed at the front: memory stays about the window's size
/// (an array holds the samples that left until it is trimmed, twice as many), nothing is
/// moved down, and letting a sample go writes nothing, so a push checks the storage's
/// uniqueness once (bench/README.md). Grows by an eighth (at least 8) when full: a push is
/// O(1) amortised while the window fills, and the ring stays close to its size after.
struct SampleRing: Hashable, Sendable {
    /// A successful reading: its time in nanoseconds of run time, and its value.
    struct Sample: Hashable, Sendable {
        var time: Int64
        var value: Double
    }

    /// The samples are the `count` from `start` on, wrapping at the end of `slots`.
    private var slots: [Sample] = []
    private var start = 0
    /// How many samples the window holds.
    private(set) var count = 0

    /// The `i`-th sample, 0 the oldest.
    @inline(__always)
    subscript(i: Int) -> Sample { slots[slot(i)] }

    /// The oldest sample; the ring must not be empty.
    @inline(__always)
    var first: Sample { slots[start] }

    /// The newest sample; the ring must not be empty.
    @inline(__always)
    var last: Sample { slots[slot(count &- 1)] }

    /// Adds the newest sample.
    @inline(__always)
    mutating func append(_ sample: Sample) {
        if count == slots.count { grow() }
        slots[slot(count)] = sample
        count &+= 1
    }

    /// Lets the oldest sample go; the ring must not be empty.
    @inline(__always)
    mutating func removeFirst() {
        start = start &+ 1 == slots.count ? 0 : start &+ 1
        count &-= 1
    }

    /// Lets the newest sample go; the ring must not be empty.
    @inline(__always)
    mutating func removeLast() { count &-= 1 }

    @inline(__always)
    private func slot(_ i: Int) -> Int {
        let j = start &+ i
        return j >= slots.count ? j &- slots.count : j
    }

    private mutating func grow() {
        var bigger = [Sample](repeating: Sample(time: 0, value: 0), count: count + max(8, count / 8))
        for i in 0..<count { bigger[i] = self[i] }
        slots = bigger
        start = 0
    }
}
