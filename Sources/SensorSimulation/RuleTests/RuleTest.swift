public import SensorConfig

/// One test of a rule-test file (SPEC §18): a scenario and what it must give.
public struct RuleTest: Sendable, Hashable {
    /// The test's name, as its result reports it.
    public var name: String
    /// The scenario the rules run over.
    public var scenario: Scenario
    /// The events, in order, one for one; nil: events are not compared.
    public var events: [ExpectedEvent]?
    /// The alerts that must be firing at given times; empty: none checked.
    public var firing: [FiringCheck]

    /// A test of the given fields.
    public init(name: String, scenario: Scenario, events: [ExpectedEvent]?, firing: [FiringCheck] = []) {
        self.name = name
        self.scenario = scenario
        self.events = events
        self.firing = firing
    }
}
