public import SensorConfig

/// A loaded rule-test file (SPEC §18): the configuration under test and its tests.
public struct RuleTestFile: Sendable, Hashable {
    /// The test file, as given.
    public var path: String
    /// The configuration its `config` names: its rules and derived sensors are tested.
    public var configuration: Configuration
    /// In file order.
    public var tests: [RuleTest]

    /// A file of the given fields.
    public init(path: String, configuration: Configuration, tests: [RuleTest]) {
        self.path = path
        self.configuration = configuration
        self.tests = tests
    }
}
