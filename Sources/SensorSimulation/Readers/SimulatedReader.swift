public import SensorConfig
public import SensorCore
import SensorDaemon
public import SensorRuntime
import Synchronization

/// Plays a scenario as a sensor source (SPEC §9).
///
/// Each `poll(at:)` returns every instant not yet returned whose scenario time is ≤ the
/// given time, in time order, each aligned with the sensor list (sensors without a sample
/// at that instant hold nothing), so a poller that falls behind still gets every sample
/// exactly once. Thread-safe: the play position sits in a mutex.
public final class SimulatedReader: SensorReader {
    /// `sim`, the `SOURCE` part of every id this reader produces.
    public let source = SourceKind.simulated.idPrefix
    private let sensors: [SensorInfo]
    /// The list position of each scenario sensor (the scenario keeps file order, the list id order).
    private let position: [Int]
    private let playback: Mutex<ScenarioPlayback>
    /// The scenario played ahead on a thread (``init(scenario:loop:ahead:)``), nil inline.
    private let ahead: ScenarioReadAhead?

    /// The reader of a simulated source: its scenario (a source without one has no sensors).
    public convenience init(configuration: SourceConfiguration, loop: Bool, ahead: Bool = false) {
        self.init(
            scenario: configuration.scenario ?? Scenario(duration: .zero, step: .seconds(1), sensors: []), loop: loop,
            ahead: ahead)
    }

    /// - Parameters:
    ///   - scenario: what to play.
    ///   - loop: start again from the beginning when it ends (`run`); `simulate` plays once.
    ///     A scenario with `loop: false` never loops. Looping repeats with period
    ///     `duration`, dropping the sample at exactly `duration` in favour of the next
    ///     round's sample at 0.
    ///   - ahead: play a scenario that does not loop ahead of the polls, on a thread of its
    ///     own (``ScenarioReadAhead``; `simulate`, whose polls come as fast as the rules
    ///     take them). Inline when no thread can be had.
    public init(scenario: Scenario, loop: Bool, ahead: Bool = false) {
        let infos = scenario.sensors.map(\.info)
        let order = infos.indices.sorted { infos[$0].id < infos[$1].id }
        let sensors = order.map { infos[$0] }
        self.sensors = sensors
        var position = Array(repeating: 0, count: infos.count)
        for (p, k) in order.enumerated() { position[k] = p }
        self.position = position
        let loops = loop && scenario.loop
        let start = ScenarioPlayback(scenario: scenario, loop: loops)
        playback = Mutex(start)
        guard ahead, !loops, !sensors.isEmpty else {
            self.ahead = nil
            return
        }
        // Stretches of a poll's worth of samples in `simulate`.
        let step = max(1, scenario.step.nanoseconds)
        let span = step * Int64(max(1, SourceSupervisor.virtualBatch / sensors.count))
        // The same playback, not made twice: the thread's copy is its own from its first step
        // (a value), and the inline one is what the reader plays when no thread can be had.
        self.ahead = try? ScenarioReadAhead(start, span: span, end: max(0, scenario.duration.nanoseconds), depth: 4) {
            [position] playback, through in
            Self.instants(of: &playback, through: through, position: position, count: sensors.count)
        }
    }

    deinit { ahead?.stop() }

    /// The scenario's sensors (`sim:<id>`, or the id itself when it holds a `:`), in id order.
    public func discover() -> [SensorInfo] { sensors }

    /// Every instant not yet returned with time ≤ `time`, in time order.
    /// A scenario never blocks in a file: nothing to give up.
    public func isolateBlockedRead(now: Timestamp) -> Bool { false }

    /// A scenario lists every sensor it has.
    public var leftOut: [String] { [] }

    /// Every instant not yet returned with time ≤ `time`, in time order.
    public func poll(at time: Timestamp) -> [SensorValues] {
        if let ahead { return ahead.take(through: time) }
        return playback.withLock { Self.instants(of: &$0, through: time, position: position, count: sensors.count) }
    }

    /// The instants `playback` plays through `time`, each aligned with the sensor list
    /// (scenario sensor `k` at list position `position[k]`).
    private static func instants(
        of playback: inout ScenarioPlayback, through time: Timestamp, position: [Int], count: Int
    ) -> [SensorValues] {
        var out: [SensorValues] = []
        // The instant being filled is the last one, changed in place (an optional
        // `current` beside `out` was copied at every sample).
        playback.play(through: time) { k, t, value, fault, alarms in
            let p = position[k]
            // A new instant; also when a sensor has two samples at one time (both count).
            if out.isEmpty || out[out.count - 1].time != t || out[out.count - 1].wasRead(p) {
                out.append(SensorValues(time: t, unread: count))
            }
            out[out.count - 1].set(p, value: value, fault: fault)
            if !alarms.isEmpty { out[out.count - 1].setAlarms(p, alarms) }
        }
        return out
    }
}
