import SensorCore
package import SensorRuntime

/// One sensor as the stream shows it (SPEC §22): what status.json says of it (SPEC §19) and
/// its alarms; in a `snapshot`, and whole in a `change` when its value, health, limits or
/// alarms changed.
public struct LiveSensor: Sendable, Hashable {
    /// The sensor's id (SPEC §4).
    public var id: String
    /// Its label; may be empty.
    public var label: String
    /// `temperature`, `humidity`, … (``Quantity``'s raw value).
    public var quantity: String
    /// The unit of ``value``.
    public var unit: String
    /// The latest successful reading; nil before the first.
    public var value: Double?
    /// When ``value`` was read, Unix seconds; nil before the first.
    public var time: Double?
    /// Whether the latest read succeeded.
    public var ok: Bool
    /// Why the latest read failed (`not read yet` before the first poll); nil when it did not.
    public var error: String?
    /// The hardware's limits by name (`max`, `crit`, `min`, … SPEC §16); empty when none.
    public var limits: [String: Double]
    /// The alarm files that read 1 at the latest poll (`alarm`, `crit`, … SPEC §16b).
    public var alarms: [String]
    /// Whether its device sleeps (SPEC §20): not read on purpose, no fault.
    public var asleep: Bool
    /// The asserted states' words of a discrete sensor (a BMC's, SPEC §23), shown in place of
    /// a value (``value`` is nil); nil for every other sensor, and while it cannot be read.
    public var state: [String]?

    /// A sensor as given.
    public init(
        id: String, label: String = "", quantity: String, unit: String, value: Double? = nil, time: Double? = nil,
        ok: Bool = true, error: String? = nil, limits: [String: Double] = [:], alarms: [String] = [],
        asleep: Bool = false,
        state: [String]? = nil
    ) {
        self.state = state
        self.id = id
        self.label = label
        self.quantity = quantity
        self.unit = unit
        self.value = value
        self.time = time
        self.ok = ok
        self.error = error
        self.limits = limits
        self.alarms = alarms
        self.asleep = asleep
    }

    /// The object, keys in status.json's order, then `alarms` and `asleep`, then a discrete
    /// sensor's `state`; `limits` is null when there are none, as in status.json.
    package var json: JSONValue {
        let limitMembers = SensorLimits.ordered(limits.keys).map { JSONObject.Member.number($0, limits[$0]) }
        var members: [JSONObject.Member] = [
            .string("id", id), .string("label", label), .string("quantity", quantity), .string("unit", unit),
            .number("value", value), .time("time", time), JSONObject.Member(key: "ok", value: .bool(ok)),
            .optionalString("error", error),
            JSONObject.Member(key: "limits", value: limitMembers.isEmpty ? .null : .object(JSONObject(limitMembers))),
            JSONObject.Member(key: "alarms", value: .array(alarms.map(JSONValue.string))),
            JSONObject.Member(key: "asleep", value: .bool(asleep)),
        ]
        if let state { members.append(JSONObject.Member(key: "state", value: .array(state.map(JSONValue.string)))) }
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
