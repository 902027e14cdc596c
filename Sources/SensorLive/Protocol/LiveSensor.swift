public import SensorCore
package import SensorRuntime

/// One sensor as the stream shows it (SPEC §22): what status.json says of it (SPEC §19) and
/// its alarms; in a `snapshot`, and whole in a `change` when its value, health, limits or
/// alarms changed.
///
/// The status file's record is the one record of a sensor's state: this is it, plus what only
/// the stream says (the alarms). Its fields read as the record's (`sensor.value`); only the
/// wire form, ``json``, is the stream's own.
@dynamicMemberLookup
public struct LiveSensor: Sendable, Hashable {
    /// What status.json says of the sensor; its ``StatusSensor/limits`` nil when it has none.
    public var status: StatusSensor
    /// The alarm files that read 1 at the latest poll (`alarm`, `crit`, … SPEC §16b).
    public var alarms: [String]

    /// A sensor as given.
    public init(
        id: String, label: String = "", quantity: String, unit: String, value: Double? = nil, time: Double? = nil,
        ok: Bool = true, error: String? = nil, limits: [String: Double] = [:], alarms: [String] = [],
        asleep: Bool = false,
        state: [String]? = nil
    ) {
        self.init(
            status: StatusSensor(
                id: id, label: label, quantity: quantity, unit: unit, value: value, time: time, ok: ok, error: error,
                limits: limits.isEmpty ? nil : StatusLimits(values: limits), asleep: asleep, state: state),
            alarms: alarms)
    }

    /// The status file's record of a sensor with its alarms.
    public init(status: StatusSensor, alarms: [String] = []) {
        self.status = status
        self.alarms = alarms
    }

    /// A field of the status file's record (`id`, `value`, `ok`, `asleep`, …).
    public subscript<Field>(dynamicMember field: WritableKeyPath<StatusSensor, Field>) -> Field {
        get { status[keyPath: field] }
        set { status[keyPath: field] = newValue }
    }

    /// The hardware's limits by name (`max`, `crit`, `min`, … SPEC §16); empty when none.
    public var limits: [String: Double] {
        get { status.limits?.values ?? [:] }
        set { status.limits = newValue.isEmpty ? nil : StatusLimits(values: newValue) }
    }

    /// The object, keys in status.json's order, then `alarms` and `asleep`, then a discrete
    /// sensor's `state`; `limits` is null when there are none, as in status.json.
    package var json: JSONValue {
        let s = status, limits = self.limits
        let limitMembers = SensorLimits.ordered(limits.keys).map { JSONObject.Member.number($0, limits[$0]) }
        var members: [JSONObject.Member] = [
            .string("id", s.id), .string("label", s.label), .string("quantity", s.quantity), .string("unit", s.unit),
            .number("value", s.value), .time("time", s.time), JSONObject.Member(key: "ok", value: .bool(s.ok)),
            .optionalString("error", s.error),
            JSONObject.Member(key: "limits", value: limitMembers.isEmpty ? .null : .object(JSONObject(limitMembers))),
            JSONObject.Member(key: "alarms", value: .array(alarms.map(JSONValue.string))),
            JSONObject.Member(key: "asleep", value: .bool(s.asleep)),
        ]
        if let state = s.state {
            members.append(JSONObject.Member(key: "state", value: .array(state.map(JSONValue.string))))
        }
        return .object(JSONObject(members))
    }

    /// The sensor at `path` of a message.
    package init(json: JSONValue, path: String) throws(LiveProtocolError) {
        let f = try LiveFields(json, path: path)
        var limits: [String: Double] = [:]
        if let node = f.object["limits"], node != .null {
            let l = try LiveFields(node, path: path + ".limits")
            for key in l.object.keys { limits[key] = try l.number(key) }
        }
        self.init(
            id: try f.string("id"), label: try f.optionalString("label") ?? "", quantity: try f.string("quantity"),
            unit: try f.optionalString("unit") ?? "", value: try f.optionalNumber("value"),
            time: try f.optionalTime("time"),
            ok: try f.bool("ok"), error: try f.optionalString("error"), limits: limits,
            alarms: try f.optionalStrings("alarms") ?? [], asleep: try f.bool("asleep", absent: false),
            state: try f.optionalStrings("state"))
    }
}
