import SensorCore

/// What FreeIPMI's interpretation makes of one state of a discrete sensor.
public struct IPMIStateMeaning: Hashable, Sendable {
    /// FreeIPMI's judgement of a state (`ipmi_interpret_sensor`).
    public enum Severity: Int, Hashable, Sendable {
        case nominal = 0, warning = 1, critical = 2, unknown = 3
    }

    /// The judgement.
    public var severity: Severity
    /// The state's words (`Power Supply Failure detected`).
    public var text: String

    /// A state with FreeIPMI's judgement and words.
    public init(severity: Severity, text: String) {
        self.severity = severity
        self.text = text
    }

    /// Whether the state is an alarm (SPEC §23: warning or critical).
    public var isAlarm: Bool { severity == .warning || severity == .critical }
}
