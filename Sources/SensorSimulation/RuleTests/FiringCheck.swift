public import SensorRuntime
public import SensorCore

/// One `firing` entry of a rule test (SPEC §18): after everything at times up to and
/// including `at`, exactly these (rule, sensor) alerts fire.
public struct FiringCheck: Sendable, Hashable {
    /// Scenario time the check is made at, after everything at or before it.
    public var at: Timestamp
    /// The alerts as the file lists them (compared as a set).
    public var alerts: [AlertKey]

    /// A check of the given fields.
    public init(at: Timestamp, alerts: [AlertKey]) {
        self.at = at
        self.alerts = alerts
    }
}
