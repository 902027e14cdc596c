public import SensorConfig
public import SensorCore
import SensorRuntime

/// Every sample of a scenario, computed at once: for `simulate`, tests and plots.
///
/// Pure and deterministic: the same scenario (seed included) always gives the same samples.
public enum ScenarioSampler {
    /// The samples of sensor `index` of `scenario`, in time order: explicit feeds at their
    /// own times; generated feeds at every `step` from 0 through `duration`, both included.
    /// Failed reads are samples with a fault (`simulated dropout`, `simulated failed read`).
    public static func samples(of scenario: Scenario, sensorAt index: Int) -> [Sample] {
        var cursor = FeedCursor(sensorAt: index, of: scenario)
        var samples: [Sample] = []
        while let sample = cursor.next() { samples.append(sample) }
        return samples
    }

    /// Every sensor's samples merged in time order; at equal times, in sensor order.
    public static func samples(of scenario: Scenario) -> [Sample] {
        var playback = ScenarioPlayback(scenario: scenario, loop: false)
        var samples: [Sample] = []
        playback.play(through: Timestamp(nanoseconds: .max), into: &samples)
        return samples
    }
}
