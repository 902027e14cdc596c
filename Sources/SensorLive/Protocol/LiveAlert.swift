public import SensorCore
package import SensorRuntime

/// One alert as the stream shows it (SPEC §22): a pending or firing alert of a `snapshot`,
/// or, in a `change`, an alert whose state changed (`ok` when it resolved).
public struct LiveAlert: Sendable, Hashable {
    /// Where the alert stands.
    public enum State: String, Sendable, Hashable {
        /// Its condition holds, its `for` not yet over.
        case pending
        /// It fires.
        case firing
        /// It resolved (only in a `change`).
        case ok
    }

    /// The rule's name.
    public var rule: String
    /// The sensor's id.
    public var sensor: String
    /// `critical`, `warning`, `notice` or `info`.
    public var severity: String
    /// Where it stands now.
    public var state: State
    /// Since when it is in ``state``, Unix seconds.
    public var since: Double
    /// The sensor's latest reading; nil when it has none.
    public var value: Double?
    /// The rule's threshold; nil when it has none.
    public var threshold: Double?
    /// Until when a silence (SPEC §21) holds it, Unix seconds; nil when none does.
    public var silenced: Double?

    /// An alert as given.
    public init(
        rule: String, sensor: String, severity: String, state: State, since: Double, value: Double? = nil,
        threshold: Double? = nil, silenced: Double? = nil
    ) {
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.state = state
        self.since = since
        self.value = value
        self.threshold = threshold
        self.silenced = silenced
    }

    /// A pending or firing alert of the status file's (SPEC §19) as the stream shows it: what
    /// the stream's wire form has of it (no condition, limit, window or unit; no threshold for
    /// a rule with none), silenced until `silenced` (Unix seconds) when a silence holds it.
    public init(_ alert: StatusAlert, silenced: Double?) {
        self.init(
            rule: alert.rule, sensor: alert.sensor, severity: alert.severity.rawValue,
            state: alert.state == .firing ? .firing : .pending, since: alert.since, value: alert.value,
            threshold: alert.threshold.isFinite ? alert.threshold : nil, silenced: silenced)
    }

    /// The (rule, sensor) pair that names it.
    public var key: AlertKey { AlertKey(rule: rule, sensor: SensorID(sensor)) }

    /// The object, keys in status.json's order, then `silenced`.
    package var json: JSONValue {
        .object(
            JSONObject([
                .string("rule", rule), .string("sensor", sensor), .string("severity", severity),
                .string("state", state.rawValue),
                .time("since", since), .number("value", value), .number("threshold", threshold),
                .time("silenced", silenced),
            ]))
    }

    /// The alert at `path` of a message.
    package init(json: JSONValue, path: String) throws(LiveProtocolError) {
        let f = try LiveFields(json, path: path)
        let stateText = try f.string("state")
        guard let state = State(rawValue: stateText) else {
            throw LiveProtocolError("\(path).state: expected pending, firing or ok, found \"\(stateText)\"")
        }
        self.init(
            rule: try f.string("rule"), sensor: try f.string("sensor"), severity: try f.string("severity"),
            state: state,
            since: try f.time("since"), value: try f.optionalNumber("value"),
            threshold: try f.optionalNumber("threshold"),
            silenced: try f.optionalTime("silenced"))
    }
}
