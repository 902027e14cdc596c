extension AlertmanagerAlert {
    /// The alert as `notify.json` keeps it, keys sorted (not the body Alertmanager receives:
    /// that is ``json(endsAt:)``).
    var json: JSONValue {
        .object(JSONObject([
            .init(key: "host", value: .string(host)),
            .init(key: "rule", value: .string(rule)),
            .init(key: "sensor", value: .string(sensor)),
            .init(key: "severity", value: .string(severity)),
            .init(key: "startsAt", value: .integer(Int64(clamping: startsAt))),
            .init(key: "summary", value: .string(summary)),
            .init(key: "threshold", value: .string(threshold)),
            .init(key: "value", value: .string(value)),
        ]))
    }

    /// The alert from its JSON in `notify.json`, or nil after reporting what is wrong.
    init?(json node: ConfigNode) {
        guard let o = node.object() else { return nil }
        let strings = ["rule", "sensor", "severity", "host", "summary", "value", "threshold"].map {
            o.required($0)?.string()
        }
        var startsAt: UInt64?
        if let start = o.required("startsAt"), let i = start.integer() {
            startsAt = UInt64(exactly: i)
            if startsAt == nil { start.report("must be 0 or more") }
        }
        guard let startsAt, !strings.contains(nil) else { return nil }
        let s = strings.compactMap { $0 }
        self.init(
            rule: s[0], sensor: s[1], severity: s[2], host: s[3], summary: s[4], value: s[5], threshold: s[6],
            startsAt: startsAt)
    }
}
