/// One alert that is pending or firing, as the status file shows it (SPEC §19).
public struct StatusAlert: Sendable, Hashable {
    /// `pending` (its condition holds, its `for` not yet over) or `firing`.
    public enum State: String, Sendable, Hashable {
        case pending, firing
    }

    public var rule: String
    public var sensor: String
    public var severity: Severity
    public var state: State
    /// Since when it is in ``state``, Unix seconds.
    public var since: Double
    /// The sensor's latest successful reading; nil when it has none.
    public var value: Double?
    public var threshold: Double
    /// Until when a silence (SPEC §21) holds it, Unix seconds; set by `status` from the
    /// journal, never by the daemon (which knows no silences), nil when none does.
    public var silencedUntil: Double?

    public init(
        rule: String, sensor: String, severity: Severity, state: State, since: Double, value: Double?, threshold: Double,
        silencedUntil: Double? = nil
    ) {
        self.silencedUntil = silencedUntil
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.state = state
        self.since = since
        self.value = value
        self.threshold = threshold
    }
}
