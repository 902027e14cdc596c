/// One daemon log entry (not an alert event, not a sensor fault: those go to an
/// ``AlertSink``).
public struct LogEntry: Hashable, Sendable {
    /// How much it matters.
    public var level: LogLevel
    /// The text for people; may span lines.
    public var message: String
    /// What it is about, where that kind has its own `MESSAGE_ID`.
    public var kind: LogEntryKind?
    /// Where it was logged.
    public var location: CodeLocation

    /// An entry of the given fields; `kind` nil for an entry without a `MESSAGE_ID` of its own.
    public init(level: LogLevel, message: String, kind: LogEntryKind? = nil, location: CodeLocation = CodeLocation()) {
        self.level = level
        self.message = message
        self.kind = kind
        self.location = location
    }
}
