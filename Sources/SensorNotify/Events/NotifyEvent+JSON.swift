import SensorCore
import SensorRuntime

extension NotifyEvent {
    /// The event as `notify.json` keeps it among a target's held-back alerts (SPEC §21): its
    /// fields by name, keys sorted, those it lacks left out, as the files written with
    /// Foundation's encoder had them (not the object an `exec` target reads: that is ``json``).
    var stateJSON: JSONValue {
        func member(_ key: String, _ value: JSONValue) -> JSONObject.Member {
            JSONObject.Member(key: key, value: value)
        }
        var members: [JSONObject.Member] = [
            member(
                "annotations",
                .object(
                    JSONObject(
                        annotations.present.sorted { $0.name < $1.name }.map {
                            member($0.name, .string($0.value))
                        }))),
            member("host", .string(host)), member("kind", .string(kind.rawValue)), member("label", .string(label)),
        ]
        if let limit { members.append(member("limit", .string(limit))) }
        members.append(member("message", .string(message)))
        if let predicted { members.append(member("predicted", .number(predicted))) }
        members += [
            member("quantity", .string(quantity)),
            member("realtimeMicroseconds", .integer(Int64(clamping: realtimeMicroseconds))),
            member("rule", .string(rule)), member("sensor", .string(sensor)),
        ]
        if let severity { members.append(member("severity", .string(severity.rawValue))) }
        if let threshold { members.append(member("threshold", .number(threshold))) }
        members.append(member("unit", .string(unit)))
        if let value { members.append(member("value", .number(value))) }
        return .object(JSONObject(members))
    }

    /// The event from its JSON in `notify.json`, or nil after reporting what is wrong. An
    /// optional field may be absent or `null`.
    init?(stateJSON node: ConfigNode) {
        guard let o = node.object() else { return nil }
        func optional(_ key: String) -> ConfigNode? {
            guard let n = o[key], n.value != .null else { return nil }
            return n
        }
        var valid = true
        func required<T>(_ key: String, _ read: (ConfigNode) -> T?) -> T? {
            guard let n = o.required(key) else {
                valid = false
                return nil
            }
            let v = read(n)
            if v == nil { valid = false }
            return v
        }
        func present<T>(_ key: String, _ read: (ConfigNode) -> T?) -> T? {
            guard let n = optional(key) else { return nil }
            let v = read(n)
            if v == nil { valid = false }
            return v
        }
        var micros: UInt64?
        if let n = o.required("realtimeMicroseconds") {
            if let i = n.integer() {
                micros = UInt64(exactly: i)
                if micros == nil { n.report("must be 0 or more") }
            }
        }
        if micros == nil { valid = false }
        let kind: EventKind? = required("kind") { $0.choice("event kind") }
        let severity: Severity? = present("severity") { $0.choice("severity") }
        let strings = ["rule", "sensor", "label", "quantity", "unit", "host", "message"].map { key in
            required(key) { $0.string() }
        }
        let value = present("value") { $0.number() }
        let threshold = present("threshold") { $0.number() }
        let predicted = present("predicted") { $0.number() }
        let limit = present("limit") { $0.string() }
        var annotations = RuleAnnotations()
        if let a = optional("annotations") {
            if let ao = a.object() {
                for name in ao.members.keys {
                    guard RuleAnnotations.names.contains(name), let n = ao[name], n.value != .null else { continue }
                    guard let text = n.string() else {
                        valid = false
                        continue
                    }
                    switch name {
                    case "summary": annotations.summary = text
                    case "description": annotations.description = text
                    default: annotations.runbook = text
                    }
                }
            } else {
                valid = false
            }
        }
        guard valid, let micros, let kind else { return nil }
        let s = strings.map { $0 ?? "" }
        self.init(
            realtimeMicroseconds: micros, kind: kind, rule: s[0], severity: severity, sensor: s[1], label: s[2],
            quantity: s[3], value: value, unit: s[4], threshold: threshold, host: s[5], message: s[6],
            predicted: predicted, limit: limit, annotations: annotations)
    }
}
