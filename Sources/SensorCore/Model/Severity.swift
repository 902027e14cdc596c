public import SensorRuntime

/// How urgent an alert is; fixes the journal priority of its `firing` and `repeat` events.
public enum Severity: String, Sendable, Hashable, CaseIterable {
    case critical
    case warning
    case notice
    case info

    /// The level of a firing or repeat event of this severity (SPEC §7).
    public var level: LogLevel {
        switch self {
        case .critical: return .critical
        case .warning: return .warning
        case .notice: return .notice
        case .info: return .info
        }
    }

    /// The syslog priority of a firing or repeat event of this severity (SPEC §7).
    public var priority: Int { level.priority }
}
