import SensorRuntime

/// What the running daemon sees now, as `status.json` holds it (SPEC §19): written by
/// ``StatusService``, read by `sensorwatch status`.
public struct StatusReport: Sendable, Hashable {
    /// The daemon's version.
    public var version: String
    /// The daemon's process id.
    public var pid: Int
    /// When the daemon started, Unix seconds.
    public var started: Double
    /// When this report was taken, Unix seconds.
    public var updated: Double
    /// Every sensor, sorted by id.
    public var sensors: [StatusSensor]
    /// Every pending or firing alert, in rule order, then by sensor id.
    public var alerts: [StatusAlert]

    /// A report of the given fields; `started` and `updated` are Unix seconds.
    public init(
        version: String, pid: Int, started: Double, updated: Double, sensors: [StatusSensor], alerts: [StatusAlert]
    ) {
        self.version = version
        self.pid = pid
        self.started = started
        self.updated = updated
        self.sensors = sensors
        self.alerts = alerts
    }

    /// The file's text: one JSON object, a sensor or an alert per line (readable with
    /// `cat`, and `jq` takes it as it is), keys in the documented order, ending in a newline;
    /// `silencedUntil` only for an alert a silence holds (`status --json`, SPEC §21). An
    /// alert's `threshold` stays the number; `condition`, `limit`, `within`, `unit` and
    /// `thresholdText` say what it is.
    public var json: String {
        func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
            JSONObject.Member(key: key, value: value)
        }
        func time(_ t: Double) -> JSONValue { .string(RFC3339.format(t)) }
        func number(_ v: Double?) -> JSONValue { v.map(JSONValue.number) ?? .null }
        func string(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        let sensorValues = sensors.map { e -> JSONValue in
            var members = [
                member("id", .string(e.id)), member("label", .string(e.label)), member("quantity", .string(e.quantity)),
                member("unit", .string(e.unit)), member("value", number(e.value)),
                member("time", e.time.map(time) ?? .null),
                member("ok", .bool(e.ok)), member("error", string(e.error)),
                member(
                    "limits",
                    e.limits.map { l in .object(JSONObject(l.names.map { member($0, number(l.values[$0])) })) } ?? .null
                ),
            ]
            // Only for a sleeping sensor (SPEC §20), so an awake machine's file is as before.
            if e.asleep { members.append(member("asleep", .bool(true))) }
            // Only for a discrete sensor (SPEC §23): its words, as `sensors --json` has them.
            if let state = e.state { members.append(member("state", .array(state.map(JSONValue.string)))) }
            return .object(JSONObject(members))
        }
        let alertValues = alerts.map { a -> JSONValue in
            var members = [
                member("rule", .string(a.rule)), member("sensor", .string(a.sensor)),
                member("severity", .string(a.severity.rawValue)), member("state", .string(a.state.rawValue)),
                member("since", time(a.since)), member("value", number(a.value)),
                member("threshold", number(a.threshold)),
            ]
            // What the rule used, beside the number (SPEC §16): the limit it came from, the
            // condition, a window, the unit and the text `status` prints.
            if let c = a.condition {
                members += [
                    member("condition", .string(c.rawValue)), member("limit", string(a.limit)),
                    member("within", number(a.within)), member("unit", .string(a.unit)),
                    member("thresholdText", .string(a.thresholdText)),
                ]
            }
            if let until = a.silencedUntil { members.append(member("silencedUntil", time(until))) }
            return .object(JSONObject(members))
        }
        let report = JSONValue.object(
            JSONObject([
                member("version", .string(version)), member("pid", .integer(Int64(pid))),
                member("started", time(started)),
                member("updated", time(updated)), member("sensors", .array(sensorValues)),
                member("alerts", .array(alertValues)),
            ]))
        return JSONWriter.text(report, layout: .records(depth: 2)) + "\n"
    }
}
