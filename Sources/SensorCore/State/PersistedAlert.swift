/// One firing alert as kept in `state.json` across restarts.
///
/// Holds what is needed to tell, after a restart, that an alert still fires (no second
/// `firing`) or to log its `resolved` when it cleared while the daemon was down, even if the
/// sensor has not been discovered again yet.
public struct PersistedAlert: Hashable, Sendable {
    /// The rule's name.
    public var rule: String
    /// The sensor id (`SensorID.rawValue`).
    public var sensor: String
    /// The sensor's label, empty if none.
    public var label: String
    /// The sensor's quantity.
    public var quantity: Quantity
    /// When the alert fired, wall-clock seconds since the Unix epoch (run time restarts at 0).
    public var since: Double
    /// The rule's severity when it fired.
    public var severity: Severity
    /// The last value seen while firing; nil for a stale alert.
    public var value: Double?
    /// The rule's threshold (as in `AlertEvent.threshold`).
    public var threshold: Double
    /// The rule's kind of condition.
    public var condition: ConditionKind

    /// A kept alert of the given fields; `since` is Unix seconds.
    public init(
        rule: String, sensor: String, label: String = "", quantity: Quantity, since: Double,
        severity: Severity, value: Double?, threshold: Double, condition: ConditionKind
    ) {
        self.rule = rule
        self.sensor = sensor
        self.label = label
        self.quantity = quantity
        self.since = since
        self.severity = severity
        self.value = value
        self.threshold = threshold
        self.condition = condition
    }

    /// The alert's key.
    public var key: AlertKey { AlertKey(rule: rule, sensor: SensorID(sensor)) }

    /// The sensor as far as the state file knows it.
    public var sensorInfo: SensorInfo { SensorInfo(id: SensorID(sensor), label: label, quantity: quantity) }

    /// Keeps a firing event's alert: `since` is the wall-clock time the caller maps the
    /// event's run time to.
    public init(firing event: AlertEvent, since: Double) {
        self.init(
            rule: event.rule, sensor: event.sensor.id.rawValue, label: event.sensor.label,
            quantity: event.sensor.quantity, since: since, severity: event.severity, value: event.value,
            threshold: event.threshold, condition: event.condition)
    }
}
