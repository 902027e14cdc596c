public import SensorRuntime

/// The minimum (or maximum) of the values in a sliding time window `[t - W, t]`.
///
/// A monotonic deque: each push drops the candidates the new value beats, so a push and a
/// query are O(1) amortised however many samples the window holds. Only successful samples
/// enter it (SPEC §6).
public struct MonotonicWindow: Hashable, Sendable {
    /// Which extreme the window keeps.
    public enum Extreme: Hashable, Sendable { case minimum, maximum }

    private let extreme: Extreme
    private let width: Int64
    /// The samples that may still be the extreme, oldest first.
    private var candidates = SampleRing()

    /// - Parameters:
    ///   - extreme: keep the minimum (for `rise`) or the maximum (for `fall`).
    ///   - width: `W`; a sample exactly `W` before the newest one is still inside.
    public init(_ extreme: Extreme, width: Duration) {
        self.extreme = extreme
        self.width = width.nanoseconds
    }

    /// Adds a sample at `time` (not earlier than the previous one) and returns the extreme
    /// of the window ending at `time`, the new sample included.
    public mutating func push(_ value: Double, at time: Timestamp) -> Double {
        // Drop candidates the new value makes irrelevant: they leave the window earlier and
        // are never more extreme than it.
        while candidates.count > 0, beats(value, candidates.last.value) { candidates.removeLast() }
        candidates.append(SampleRing.Sample(time: time.nanoseconds, value: value))
        let oldest = time.nanoseconds &- width
        while candidates.first.time < oldest { candidates.removeFirst() }
        return candidates.first.value
    }

    private func beats(_ new: Double, _ old: Double) -> Bool {
        extreme == .minimum ? new <= old : new >= old
    }
}
