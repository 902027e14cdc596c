import SensorRuntime

/// One alert that is pending or firing, as the status file shows it (SPEC §19).
public struct StatusAlert: Sendable, Hashable {
    /// `pending` (its condition holds, its `for` not yet over) or `firing`.
    public enum State: String, Sendable, Hashable {
        case pending, firing
    }

    /// The rule's name.
    public var rule: String
    /// The sensor's id, as text.
    public var sensor: String
    /// The rule's severity.
    public var severity: Severity
    /// Whether the alert is pending or firing.
    public var state: State
    /// Since when it is in ``state``, Unix seconds.
    public var since: Double
    /// The sensor's latest successful reading; nil when it has none.
    public var value: Double?
    /// The number the rule used for this sensor (a limit rule's resolved one, SPEC §16),
    /// in the sensor's unit; the `stale` duration in seconds.
    public var threshold: Double
    /// The kind of the rule's condition; nil in a file of a daemon that did not say.
    public var condition: ConditionKind?
    /// The limit the threshold came from (`crit`); nil for a number the rule gave.
    public var limit: String?
    /// The window of a `rise`/`fall` rule or a prediction's `within`, in seconds.
    public var within: Double?
    /// The sensor's unit, so the threshold reads without its sensor (`°C`).
    public var unit: String
    /// Until when a silence (SPEC §21) holds it, Unix seconds; set by `status` from the
    /// journal, never by the daemon (which knows no silences), nil when none does.
    public var silencedUntil: Double?

    /// An alert entry of the given fields; `silencedUntil` is for `status` to fill in, the daemon leaves it nil.
    public init(
        rule: String, sensor: String, severity: Severity, state: State, since: Double, value: Double?,
        threshold: Double,
        condition: ConditionKind? = nil, limit: String? = nil, within: Double? = nil, unit: String = "",
        silencedUntil: Double? = nil
    ) {
        self.condition = condition
        self.limit = limit
        self.within = within
        self.unit = unit
        self.silencedUntil = silencedUntil
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.state = state
        self.since = since
        self.value = value
        self.threshold = threshold
    }

    /// The threshold as the rule used it; nil when the file did not say which condition.
    public var usedThreshold: AlertThreshold? {
        condition.map { AlertThreshold(condition: $0, value: threshold, limit: limit, within: within) }
    }

    /// What `status` prints after `threshold`: ``AlertThreshold/text(unit:)``, or for a file
    /// of an older daemon the bare number with the unit.
    public var thresholdText: String {
        if let used = usedThreshold { return used.text(unit: unit) }
        return unit.isEmpty ? NumberText.display(threshold) : NumberText.display(threshold) + " " + unit
    }
}
