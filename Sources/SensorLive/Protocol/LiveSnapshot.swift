import SensorCore
package import SensorRuntime

/// The stream's second message, once (SPEC §22): everything the daemon shows now.
public struct LiveSnapshot: Sendable, Hashable {
    /// Every sensor (those of the subscription), sorted by id.
    public var sensors: [LiveSensor]
    /// Every pending or firing alert of those sensors.
    public var alerts: [LiveAlert]
    /// The active silences.
    public var silences: [LiveSilence]
    /// Per sensor id, the last 10 minutes as up to 120 buckets, oldest first (a bucket
    /// without samples left out).
    public var history: [String: [LiveBucket]]

    /// A snapshot as given.
    public init(
        sensors: [LiveSensor], alerts: [LiveAlert] = [], silences: [LiveSilence] = [],
        history: [String: [LiveBucket]] = [:]
    ) {
        self.sensors = sensors
        self.alerts = alerts
        self.silences = silences
        self.history = history
    }

    /// The members after `type`; `history` in the order of ``sensors``.
    package var members: [JSONObject.Member] {
        let known = Set(sensors.map(\.id))
        let ids = sensors.map(\.id).filter { history[$0] != nil } + history.keys.filter { !known.contains($0) }.sorted()
        return [
            JSONObject.Member(key: "sensors", value: .array(sensors.map(\.json))),
            JSONObject.Member(key: "alerts", value: .array(alerts.map(\.json))),
            JSONObject.Member(key: "silences", value: .array(silences.map(\.json))),
            JSONObject.Member(
                key: "history",
                value: .object(
                    JSONObject(
                        ids.map {
                            JSONObject.Member(key: $0, value: .array(history[$0]!.map(\.json)))
                        }))),
        ]
    }

    /// The snapshot a message's members hold.
    package init(_ f: LiveFields) throws(LiveProtocolError) {
        var history: [String: [LiveBucket]] = [:]
        if f.has("history") {
            let h = try LiveFields(f.object["history"], path: f.path + ".history")
            for member in h.object {
                guard case .array(let buckets) = member.value else {
                    throw LiveProtocolError("\(h.path).\(member.key): expected an array of buckets")
                }
                var list: [LiveBucket] = []
                for (i, b) in buckets.enumerated() {
                    list.append(try LiveBucket(json: b, path: "\(h.path).\(member.key)[\(i)]"))
                }
                history[member.key] = list
            }
        }
        self.init(
            sensors: try f.optionalList("sensors", LiveSensor.init(json:path:)) ?? [],
            alerts: try f.optionalList("alerts", LiveAlert.init(json:path:)) ?? [],
            silences: try f.optionalList("silences", LiveSilence.init(json:path:)) ?? [], history: history)
    }
}
