import Synchronization

/// Plays a scenario as a sensor source (SPEC §9).
///
/// Each `poll(at:)` returns every sample not yet returned whose scenario time is ≤ the
/// given time, in time order (sensor order at equal times), so a poller that falls behind
/// still gets every sample exactly once. Thread-safe: the play position sits in a mutex.
public final class SimulatedReader: SensorReader {
    /// `sim`, the `SOURCE` part of every id this reader produces.
    public let source = SourceKind.simulated.idPrefix
    private let sensors: [SensorInfo]
    private let playback: Mutex<ScenarioPlayback>

    /// - Parameters:
    ///   - scenario: what to play.
    ///   - loop: start again from the beginning when it ends (`run`); `simulate` plays once.
    ///     A scenario with `loop: false` never loops. Looping repeats with period
    ///     `duration`, dropping the sample at exactly `duration` in favour of the next
    ///     round's sample at 0.
    public init(scenario: Scenario, loop: Bool) {
        sensors = scenario.sensors.map(\.info).sorted { $0.id < $1.id }
        playback = Mutex(ScenarioPlayback(scenario: scenario, loop: loop && scenario.loop))
    }

    /// The scenario's sensors (`sim:<id>`, or the id itself when it holds a `:`), in id order.
    public func discover() -> [SensorInfo] { sensors }

    /// Every sample not yet returned with time ≤ `time`, in time order.
    public func poll(at time: Timestamp) -> [Sample] {
        playback.withLock { playback in
            var samples: [Sample] = []
            playback.play(through: time, into: &samples)
            return samples
        }
    }
}
