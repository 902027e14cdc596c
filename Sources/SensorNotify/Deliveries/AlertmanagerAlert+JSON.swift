import SensorRuntime

extension AlertmanagerAlert {
    /// The alert as `notify.json` keeps it, keys sorted (not the body Alertmanager receives:
    /// that is ``json(endsAt:)``); `description` and `runbook` are left out when the rule
    /// has none.
    var json: JSONValue {
        var members: [JSONObject.Member] = []
        if let description { members.append(.init(key: "description", value: .string(description))) }
        members += [.init(key: "host", value: .string(host)), .init(key: "rule", value: .string(rule))]
        if let runbook { members.append(.init(key: "runbook", value: .string(runbook))) }
        return .object(
            JSONObject(
                members + [
                    .init(key: "sensor", value: .string(sensor)),
                    .init(key: "severity", value: .string(severity)),
                    .init(key: "startsAt", value: .integer(Int64(clamping: startsAt))),
                    .init(key: "summary", value: .string(summary)),
                    .init(key: "threshold", value: .string(threshold)),
                    .init(key: "value", value: .string(value)),
                ]))
    }

    /// The alert from its JSON in `notify.json`, or nil after reporting what is wrong; a file
    /// written before annotations existed has no `description` or `runbook`.
    init?(json node: ConfigNode) {
        guard let o = node.object() else { return nil }
        func annotation(_ key: String) -> String?? {
            guard let n = o[key], n.value != .null else { return .some(nil) }
            return n.string().map { .some($0) }
        }
        guard let description = annotation("description"), let runbook = annotation("runbook") else { return nil }
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
            startsAt: startsAt, description: description, runbook: runbook)
    }
}
