/// A simulated feed (SPEC §9): sensors with explicit, CSV or generated samples.
public struct Scenario: Sendable, Hashable {
    /// How long a run of it lasts; generated sensors and stale ticks stop here.
    public var duration: Duration
    /// Sample period of generated sensors and of stale ticks.
    public var step: Duration
    /// Seed of the noise generator.
    public var seed: UInt64
    /// Whether `run` starts it again from the beginning when it ends.
    public var loop: Bool
    /// Sensors in file order.
    public var sensors: [ScenarioSensor]

    /// A scenario of the given fields, taken as they are: ``ScenarioLoader`` validates a file's.
    public init(duration: Duration, step: Duration, seed: UInt64 = 0, loop: Bool = true, sensors: [ScenarioSensor]) {
        self.duration = duration
        self.step = step
        self.seed = seed
        self.loop = loop
        self.sensors = sensors
    }
}
