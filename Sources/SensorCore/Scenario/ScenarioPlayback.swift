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
        let limit = limit.nanoseconds
        while true {
            var best = -1
            var bestTime = Int64.max
            for k in cursors.indices where cursors[k].nextTime < bestTime {
                best = k
                bestTime = cursors[k].nextTime
            }
            if best < 0 {
                guard loops, offset &+ period <= limit else { return }
                offset &+= period
                cursors = initial
                continue
            }
            guard offset &+ bestTime <= limit, let sample = cursors[best].next(offset: offset) else { return }
            samples.append(sample)
        }
    }
}
