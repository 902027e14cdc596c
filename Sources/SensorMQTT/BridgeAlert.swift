import SensorRuntime

/// One (rule, sensor) alert as the bridge publishes it: what the daemon's stream says of it.
public struct BridgeAlert: Sendable, Hashable {
    /// The rule's name.
    public var rule: String
    /// The sensor's id.
    public var sensor: String
    /// `critical`, `warning`, … (empty while unknown).
    public var severity: String
    /// Whether it fires (`ON`); pending and resolved are `OFF`.
    public var firing: Bool
    /// When its current state began (RFC 3339), if known.
    public var since: String?
    /// The value that made it fire, if any.
    public var value: Double?
    /// The rule's threshold, if it has one.
    public var threshold: Double?
    /// What happened, in words, if known.
    public var message: String?
    /// The rule's runbook URL, if any.
    public var runbook: String?

    /// An alert with these parts.
    public init(
        rule: String, sensor: String, severity: String = "", firing: Bool, since: String? = nil, value: Double? = nil,
        threshold: Double? = nil, message: String? = nil, runbook: String? = nil
    ) {
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.firing = firing
        self.since = since
        self.value = value
        self.threshold = threshold
        self.message = message
        self.runbook = runbook
    }

    /// The attributes topic's JSON: rule, sensor, severity, threshold, value, since, message,
    /// runbook (null where unknown).
    public var attributesJSON: String {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        func number(_ d: Double?) -> JSONValue { d.map(JSONValue.number) ?? .null }
        return JSONWriter.text(
            .object(
                JSONObject([
                    .init(key: "rule", value: .string(rule)), .init(key: "sensor", value: .string(sensor)),
                    .init(key: "severity", value: .string(severity)), .init(key: "threshold", value: number(threshold)),
                    .init(key: "value", value: number(value)), .init(key: "since", value: text(since)),
                    .init(key: "message", value: text(message)), .init(key: "runbook", value: text(runbook)),
                ])))
    }
}
