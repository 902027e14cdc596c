/// Plays a scenario as a sensor source (SPEC §9).
public final class SimulatedReader: SensorReader {
    public let source = SourceKind.simulated.idPrefix
    private let scenario: Scenario
    private let loop: Bool

    /// - Parameters:
    ///   - scenario: what to play.
    ///   - loop: start again from the beginning when it ends (`run`); `simulate` plays once.
    public init(scenario: Scenario, loop: Bool) {
        self.scenario = scenario
        self.loop = loop && scenario.loop
    }

    public func discover() -> [SensorInfo] { scenario.sensors.map(\.info) }

    public func poll(at time: Timestamp) -> [Sample] { [] }
}
