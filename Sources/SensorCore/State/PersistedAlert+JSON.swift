import SensorRuntime
extension PersistedAlert {
    /// The alert as `state.json` keeps it, keys sorted; `value` is left out when there is
    /// none and a threshold that is not a number is `null`.
    var json: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "condition", value: .string(condition.rawValue)),
            .init(key: "label", value: .string(label)),
            .init(key: "quantity", value: .string(quantity.rawValue)),
            .init(key: "rule", value: .string(rule)),
            .init(key: "sensor", value: .string(sensor)),
            .init(key: "severity", value: .string(severity.rawValue)),
            .init(key: "since", value: .number(since)),
            .init(key: "threshold", value: .number(threshold)),
        ]
        if let value { members.append(.init(key: "value", value: .number(value))) }
        return .object(JSONObject(members))
    }

    /// The alert from its JSON in `state.json`, or nil after reporting what is wrong.
    init?(json node: ConfigNode) {
        guard let o = node.object() else { return nil }
        let rule = o.required("rule")?.string()
        let sensor = o.required("sensor")?.string()
        let label = o["label"].map { $0.string() } ?? ""
        let quantity: Quantity? = o.required("quantity")?.choice("quantity")
        let since = o.required("since")?.number()
        let severity: Severity? = o.required("severity")?.choice("severity")
        // Absent or null: a stale alert has no value. Optional of optional: nil is "bad".
        var value: Double?? = .some(nil)
        if let v = o["value"], v.value != .null { value = v.number().map { .some($0) } }
        var threshold: Double?
        if let t = o.required("threshold") { threshold = t.value == .null ? .nan : t.number() }
        let condition: ConditionKind? = o.required("condition")?.choice("condition")
        guard let rule, let sensor, let label, let quantity, let since, let severity, let value, let threshold,
            let condition
        else { return nil }
        self.init(
            rule: rule, sensor: sensor, label: label, quantity: quantity, since: since, severity: severity,
            value: value, threshold: threshold, condition: condition)
    }
}
