/// What the running daemon sees now, as `status.json` holds it (SPEC §19): written by
/// ``StatusService``, read by `sensorwatch status`.
public struct StatusReport: Sendable, Hashable {
    /// The daemon's version.
    public var version: String
    public var pid: Int
    /// When the daemon started, Unix seconds.
    public var started: Double
    /// When this report was taken, Unix seconds.
    public var updated: Double
    /// Every sensor, sorted by id.
    public var sensors: [StatusSensor]
    /// Every pending or firing alert, in rule order, then by sensor id.
    public var alerts: [StatusAlert]

    public init(version: String, pid: Int, started: Double, updated: Double, sensors: [StatusSensor], alerts: [StatusAlert]) {
        self.version = version
        self.pid = pid
        self.started = started
        self.updated = updated
        self.sensors = sensors
        self.alerts = alerts
    }

    /// The file's text: one JSON object, a sensor or an alert per line (readable with
    /// `cat`, and `jq` takes it as it is), keys in the documented order, ending in a newline;
    /// `silencedUntil` only for an alert a silence holds (`status --json`, SPEC §21).
    public var json: String {
        var s = "{\"version\":" + str(version) + ",\"pid\":\(pid),\"started\":" + str(RFC3339.format(started))
        s += ",\"updated\":" + str(RFC3339.format(updated)) + ",\n\"sensors\":["
        for (i, e) in sensors.enumerated() {
            s += (i == 0 ? "\n" : ",\n") + "{\"id\":" + str(e.id) + ",\"label\":" + str(e.label)
            s += ",\"quantity\":" + str(e.quantity) + ",\"unit\":" + str(e.unit) + ",\"value\":" + num(e.value)
            s += ",\"time\":" + (e.time.map { str(RFC3339.format($0)) } ?? "null") + ",\"ok\":\(e.ok)"
            s += ",\"error\":" + (e.error.map(str) ?? "null") + ",\"limits\":"
            s += e.limits.map { "{\"max\":" + num($0.max) + ",\"crit\":" + num($0.crit) + "}" } ?? "null"
            // Only for a sleeping sensor (SPEC §20), so an awake machine's file is as before.
            if e.asleep { s += ",\"asleep\":true" }
            s += "}"
        }
        s += "],\n\"alerts\":["
        for (i, a) in alerts.enumerated() {
            s += (i == 0 ? "\n" : ",\n") + "{\"rule\":" + str(a.rule) + ",\"sensor\":" + str(a.sensor)
            s += ",\"severity\":\"\(a.severity.rawValue)\",\"state\":\"\(a.state.rawValue)\""
            s += ",\"since\":" + str(RFC3339.format(a.since)) + ",\"value\":" + num(a.value)
            s += ",\"threshold\":" + num(a.threshold)
            if let until = a.silencedUntil { s += ",\"silencedUntil\":" + str(RFC3339.format(until)) }
            s += "}"
        }
        s += "]}\n"
        return s
    }

    private func str(_ s: String) -> String { EventFormatter.jsonString(s) }
    private func num(_ v: Double?) -> String { v.map(EventFormatter.number) ?? "null" }
}
