/// One test of a rule-test file (SPEC §18): a scenario and what it must give.
public import SensorConfig

public struct RuleTest: Sendable, Hashable {
    public var name: String
    public var scenario: Scenario
    /// The events, in order, one for one; nil: events are not compared.
    public var events: [ExpectedEvent]?
    public var firing: [FiringCheck]

    public init(name: String, scenario: Scenario, events: [ExpectedEvent]?, firing: [FiringCheck] = []) {
        self.name = name
        self.scenario = scenario
        self.events = events
        self.firing = firing
    }
}
