package import SensorRuntime

/// What changed since the last message to this client (SPEC §22): only what changed, each
/// part left out when nothing of it did.
public struct LiveChange: Sendable, Hashable {
    /// When the daemon wrote it, Unix seconds.
    public var time: Double
    /// Each sensor whose value, health, limits or alarms changed, whole.
    public var sensors: [LiveSensor]
    /// Each alert whose state changed, whole (`ok` when it resolved).
    public var alerts: [LiveAlert]
    /// The whole active list when it changed; nil when it did not.
    public var silences: [LiveSilence]?
    /// Ids of sensors that appeared (each is also in ``sensors``).
    public var appeared: [String]
    /// Ids of sensors that went.
    public var gone: [String]

    /// A change as given.
    public init(
        time: Double, sensors: [LiveSensor] = [], alerts: [LiveAlert] = [], silences: [LiveSilence]? = nil,
        appeared: [String] = [], gone: [String] = []
    ) {
        self.time = time
        self.sensors = sensors
        self.alerts = alerts
        self.silences = silences
        self.appeared = appeared
        self.gone = gone
    }

    /// Whether it carries nothing (and so is not sent).
    public var isEmpty: Bool {
        sensors.isEmpty && alerts.isEmpty && silences == nil && appeared.isEmpty && gone.isEmpty
    }

    /// The members after `type`: `time`, then only the parts that changed.
    package var members: [JSONObject.Member] {
        var m: [JSONObject.Member] = [.time("time", time)]
        if !sensors.isEmpty { m.append(JSONObject.Member(key: "sensors", value: .array(sensors.map(\.json)))) }
        if !alerts.isEmpty { m.append(JSONObject.Member(key: "alerts", value: .array(alerts.map(\.json)))) }
        if let silences { m.append(JSONObject.Member(key: "silences", value: .array(silences.map(\.json)))) }
        if !appeared.isEmpty {
            m.append(JSONObject.Member(key: "appeared", value: .array(appeared.map(JSONValue.string))))
        }
        if !gone.isEmpty { m.append(JSONObject.Member(key: "gone", value: .array(gone.map(JSONValue.string)))) }
        return m
    }

    /// The change a message's members hold.
    package init(_ f: LiveFields) throws(LiveProtocolError) {
        self.init(
            time: try f.time("time"), sensors: try f.optionalList("sensors", LiveSensor.init(json:path:)) ?? [],
            alerts: try f.optionalList("alerts", LiveAlert.init(json:path:)) ?? [],
            silences: try f.optionalList("silences", LiveSilence.init(json:path:)),
            appeared: try f.optionalStrings("appeared") ?? [], gone: try f.optionalStrings("gone") ?? [])
    }
}
