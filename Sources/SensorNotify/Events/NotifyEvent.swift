public import SensorCore
import SensorRuntime

/// One alert event as a notification target receives it: what the daemon's journal entry
/// says, with the host that logged it (SPEC §17).
///
/// Fields an entry lacks are nil or empty rather than dropping the event: a person would
/// rather be paged with a blank label than not at all.
public struct NotifyEvent: Sendable, Hashable {
    /// The entry's realtime timestamp, microseconds since the Unix epoch.
    public var realtimeMicroseconds: UInt64
    /// `ALERT_STATE`.
    public var kind: EventKind
    /// `ALERT_RULE`.
    public var rule: String
    /// `ALERT_SEVERITY`, if known.
    public var severity: Severity?
    /// `SENSOR_ID`.
    public var sensor: String
    /// `SENSOR_LABEL`, empty when absent.
    public var label: String
    /// `SENSOR_QUANTITY`, empty when absent.
    public var quantity: String
    /// `SENSOR_VALUE`; nil for a stale alert that fires.
    public var value: Double?
    /// `SENSOR_UNIT`.
    public var unit: String
    /// `ALERT_THRESHOLD`.
    public var threshold: Double?
    /// `_HOSTNAME`.
    public var host: String
    /// `MESSAGE`.
    public var message: String
    /// `ALERT_PREDICTED`, for predict rules.
    public var predicted: Double?
    /// `ALERT_LIMIT`: the hardware limit the threshold came from (`crit`, SPEC §16), for
    /// events of a rule that names one; nil otherwise.
    public var limit: String?
    /// Whether the entry says `ALERT_REASON=gone`: a `resolved` because the sensor went
    /// (SPEC §20), `"reason": "sensor gone"` in the JSON.
    public var sensorGone = false
    /// `ALERT_SUMMARY`, `ALERT_DESCRIPTION`, `ALERT_RUNBOOK`: the rule's annotations (SPEC §21).
    public var annotations: RuleAnnotations

    /// An event of the given fields; `realtimeMicroseconds` is microseconds since the Unix epoch.
    public init(
        realtimeMicroseconds: UInt64, kind: EventKind, rule: String, severity: Severity?, sensor: String,
        label: String = "", quantity: String = "", value: Double?, unit: String = "", threshold: Double?,
        host: String, message: String, predicted: Double? = nil, limit: String? = nil,
        annotations: RuleAnnotations = RuleAnnotations()
    ) {
        self.annotations = annotations
        self.realtimeMicroseconds = realtimeMicroseconds
        self.kind = kind
        self.rule = rule
        self.severity = severity
        self.sensor = sensor
        self.label = label
        self.quantity = quantity
        self.value = value
        self.unit = unit
        self.threshold = threshold
        self.host = host
        self.message = message
        self.predicted = predicted
        self.limit = limit
    }

    /// The entry's time, RFC 3339 in UTC.
    public var time: String { RFC3339.format(microseconds: realtimeMicroseconds) }

    /// The object an `exec` target reads on standard input, keys in the documented order,
    /// no trailing newline; `predicted`, `limit`, `reason` and the annotations (`summary`,
    /// `description`, `runbook`) only where the event has them.
    public var json: String {
        func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
            JSONObject.Member(key: key, value: value)
        }
        func number(_ v: Double?) -> JSONValue { v.map(JSONValue.number) ?? .null }
        var members = [
            member("time", .string(time)), member("event", .string(kind.rawValue)), member("rule", .string(rule)),
            member("severity", severity.map { .string($0.rawValue) } ?? .null), member("sensor", .string(sensor)),
            member("label", .string(label)), member("quantity", .string(quantity)), member("value", number(value)),
            member("unit", .string(unit)), member("threshold", number(threshold)), member("host", .string(host)),
            member("message", .string(message)),
        ]
        if let predicted { members.append(member("predicted", number(predicted))) }
        if let limit { members.append(member("limit", .string(limit))) }
        if sensorGone { members.append(member("reason", .string("sensor gone"))) }
        members += annotations.present.map { member($0.name, .string($0.value)) }
        return JSONWriter.text(.object(JSONObject(members)))
    }

    /// The environment of an `exec` target, `NAME=value`, as in the journal, with `PATH`
    /// (a fixed one: the notifier's own may be a unit's bare default). An absent value is an
    /// empty variable, so a script can rely on every name being set.
    public var environment: [String] {
        func number(_ v: Double?) -> String { v.map(NumberText.number) ?? "" }
        return [
            "ALERT_RULE=" + rule,
            "ALERT_STATE=" + kind.rawValue,
            "ALERT_SEVERITY=" + (severity?.rawValue ?? ""),
            "ALERT_THRESHOLD=" + number(threshold),
            "SENSOR_ID=" + sensor,
            "SENSOR_LABEL=" + label,
            "SENSOR_QUANTITY=" + quantity,
            "SENSOR_VALUE=" + number(value),
            "SENSOR_UNIT=" + unit,
            "ALERT_MESSAGE=" + message,
            "ALERT_HOST=" + host,
            "ALERT_TIME=" + time,
            "ALERT_SUMMARY=" + (annotations.summary ?? ""),
            "ALERT_DESCRIPTION=" + (annotations.description ?? ""),
            "ALERT_RUNBOOK=" + (annotations.runbook ?? ""),
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ]
    }

    /// The made-up events of `notify --test` (rule `sensorwatch-test`, sensor `sim:test`,
    /// severity `info`): a firing at `now` (42 °C above 40 °C) and its resolved one second
    /// later (38 °C), worded by ``EventFormatter`` as the daemon's own entries are.
    public static func testEvents(now: UInt64, host: String) -> [NotifyEvent] {
        let sensor = SensorInfo(id: SensorID("sim:test"), label: "test", quantity: .temperature)
        return [(EventKind.firing, 42.0), (.resolved, 38.0)].enumerated().map { i, made in
            let (kind, value) = made
            let event = AlertEvent(
                time: .zero, kind: kind, rule: "sensorwatch-test", ruleIndex: 0, sensor: sensor, severity: .info,
                value: value, threshold: 40, condition: .above)
            return NotifyEvent(
                realtimeMicroseconds: now + UInt64(i) * 1_000_000, kind: kind, rule: event.rule,
                severity: event.severity,
                sensor: sensor.id.rawValue, label: sensor.label, quantity: sensor.quantity.rawValue, value: value,
                unit: sensor.unit, threshold: event.threshold, host: host,
                message: event.message + " (sensorwatch notify --test)")
        }
    }
}
