public import SensorCore

/// One alert event as read back from the journal (``JournalEntryDecoder``): what `history`
/// shows and, as a ``NotifyEvent``, what `notify` delivers.
///
/// Fields an entry lacks (older or hand-written entries) are nil or empty rather than
/// making the read fail.
public struct JournalAlertRecord: Hashable, Sendable {
    /// Wall-clock time of the entry, microseconds since the Unix epoch (`__REALTIME_TIMESTAMP`).
    public var realtimeMicroseconds: UInt64
    /// `_HOSTNAME`: the machine that logged the entry (the sender's, in a journal-remote
    /// file); empty when absent.
    public var host: String
    /// `ALERT_STATE`.
    public var kind: EventKind
    /// `ALERT_RULE`.
    public var rule: String
    /// `ALERT_SEVERITY`, if present and known.
    public var severity: Severity?
    /// `SENSOR_ID`.
    public var sensor: String
    /// `SENSOR_LABEL`, empty when absent.
    public var label: String
    /// `SENSOR_UNIT`, empty when absent.
    public var unit: String
    /// `SENSOR_VALUE`; nil for a stale alert that fired.
    public var value: Double?
    /// `ALERT_THRESHOLD`.
    public var threshold: Double?
    /// `MESSAGE`.
    public var message: String
    /// `ALERT_CONDITION`, if present and known.
    public var condition: ConditionKind?
    /// `ALERT_PREDICTED`: a predict rule's prediction; nil when the window had no line (and
    /// for every other rule).
    public var predicted: Double?
    /// `ALERT_LIMIT`: the limit a limit rule's threshold came from (SPEC §16); nil otherwise.
    public var limit: String?
    /// `ALERT_WITHIN`: the window of a `rise`/`fall` rule or a prediction's `within`, seconds.
    public var within: Double?
    /// `SENSOR_QUANTITY`, empty when absent.
    public var quantity = ""
    /// `ALERT_ALARM=1`: the chip's latched alarm made the event (SPEC §16b).
    public var hardwareAlarm = false
    /// `ALERT_REASON=gone`: a `resolved` because the sensor went (SPEC §20).
    public var sensorGone = false
    /// `ALERT_SUMMARY`, `ALERT_DESCRIPTION`, `ALERT_RUNBOOK`: the rule's annotations (SPEC §21).
    public var annotations = RuleAnnotations()

    /// A record of the given fields; `realtimeMicroseconds` is microseconds since the Unix epoch.
    public init(
        realtimeMicroseconds: UInt64, host: String = "", kind: EventKind, rule: String, severity: Severity?,
        sensor: String, label: String = "", unit: String = "", value: Double?, threshold: Double?, message: String = "",
        condition: ConditionKind? = nil, predicted: Double? = nil, limit: String? = nil, within: Double? = nil
    ) {
        self.within = within
        self.limit = limit
        self.realtimeMicroseconds = realtimeMicroseconds
        self.host = host
        self.kind = kind
        self.rule = rule
        self.severity = severity
        self.sensor = sensor
        self.label = label
        self.unit = unit
        self.value = value
        self.threshold = threshold
        self.message = message
        self.condition = condition
        self.predicted = predicted
    }

    /// The threshold the rule used, as the entry says it; nil for an entry without
    /// `ALERT_CONDITION` or `ALERT_THRESHOLD` (hand-written or very old).
    public var usedThreshold: AlertThreshold? {
        guard let condition, let threshold else { return nil }
        return AlertThreshold(condition: condition, value: threshold, limit: limit, within: within)
    }
}
