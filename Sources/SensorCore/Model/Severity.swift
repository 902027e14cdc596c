/// How urgent an alert is; fixes the journal priority of its `firing` and `repeat` events.
public enum Severity: String, Sendable, Hashable, CaseIterable {
    case critical
    case warning
    case notice
    case info

    /// The syslog priority of a firing or repeat event of this severity (SPEC §7).
    public var priority: Int {
        switch self {
        case .critical: return 2
        case .warning: return 4
        case .notice: return 5
        case .info: return 6
        }
    }
}
