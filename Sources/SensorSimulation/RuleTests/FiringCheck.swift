/// One `firing` entry of a rule test (SPEC §18): after everything at times up to and
/// including `at`, exactly these (rule, sensor) alerts fire.
public import SensorRuntime
public import SensorCore

public struct FiringCheck: Sendable, Hashable {
    public var at: Timestamp
    /// The alerts as the file lists them (compared as a set).
    public var alerts: [AlertKey]

    public init(at: Timestamp, alerts: [AlertKey]) {
        self.at = at
        self.alerts = alerts
    }
}
