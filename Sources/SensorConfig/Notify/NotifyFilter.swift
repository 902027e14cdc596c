public import SensorCore

/// Which alert events a notification target takes (SPEC §17): every filter present must
/// match; an absent one matches everything.
public struct NotifyFilter: Sendable, Hashable {
    /// The severities taken; nil takes every severity.
    public var severities: Set<Severity>?
    /// A glob on the rule name.
    public var rule: Glob?
    /// A glob on the sensor id.
    public var sensor: Glob?
    /// A glob on the host (`_HOSTNAME`).
    public var host: Glob?

    /// A filter of the given parts; with none, it takes every event.
    public init(severities: Set<Severity>? = nil, rule: Glob? = nil, sensor: Glob? = nil, host: Glob? = nil) {
        self.severities = severities
        self.rule = rule
        self.sensor = sensor
        self.host = host
    }

    /// The filters as `key=value` words in a fixed order (part of a target's identity).
    var words: [String] {
        var out: [String] = []
        if let severities {
            out.append(
                "severity=" + Severity.allCases.filter(severities.contains).map(\.rawValue).joined(separator: ","))
        }
        if let rule { out.append("rule=" + rule.pattern) }
        if let sensor { out.append("sensor=" + sensor.pattern) }
        if let host { out.append("host=" + host.pattern) }
        return out
    }
}
