/// What one rule test gave: its name and every difference between what it expects and
/// what the scenario gave (none: it passed).
public struct RuleTestResult: Sendable, Hashable {
    /// The test's name.
    public var name: String
    /// One entry per difference, each `expected … got …` for a person to read; it may span
    /// lines (continuations start with spaces).
    public var differences: [String]

    /// A result of the given fields; no differences means the test passed.
    public init(name: String, differences: [String]) {
        self.name = name
        self.differences = differences
    }

    /// Whether nothing differs.
    public var passed: Bool { differences.isEmpty }
}
