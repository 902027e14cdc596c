public import SensorCore

/// What a client knows of the daemon, from its stream (SPEC §22): the `snapshot` and every
/// `change` since, applied — the one client-side model `watch`, `top` and `mqtt` share.
///
/// History grows as changes come: a changed sensor's value goes into its 5-second bucket,
/// and buckets older than 10 minutes before the newest are dropped, so memory stays bounded
/// by the number of sensors.
public struct LiveState: Sendable, Hashable {
    /// The daemon's `hello`; nil before it.
    public private(set) var hello: LiveHello?
    /// Whether a `snapshot` came (before it, the state is empty, not "no sensors").
    public private(set) var hasSnapshot = false
    /// Every sensor, by id.
    public private(set) var sensors: [String: LiveSensor] = [:]
    /// Every pending or firing alert, by (rule, sensor); a resolved one is removed.
    public private(set) var alerts: [AlertKey: LiveAlert] = [:]
    /// The active silences.
    public private(set) var silences: [LiveSilence] = []
    /// Per sensor id, the last 10 minutes as buckets, oldest first.
    public private(set) var history: [String: [LiveBucket]] = [:]
    /// The `error` the daemon sent, if any.
    public private(set) var error: String?
    /// The time of the latest message that had one (a change's), Unix seconds.
    public private(set) var updated: Double?

    /// An empty state: nothing heard yet.
    public init() {}

    /// The sensors sorted by id.
    public var sortedSensors: [LiveSensor] { sensors.values.sorted { $0.id < $1.id } }

    /// The alerts sorted by rule, then sensor.
    public var sortedAlerts: [LiveAlert] { alerts.values.sorted { $0.key < $1.key } }

    /// Takes one message in.
    public mutating func apply(_ message: LiveMessage) {
        switch message {
        case .hello(let h):
            self = LiveState()
            hello = h
        case .snapshot(let s):
            hasSnapshot = true
            sensors = Dictionary(s.sensors.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            alerts = Dictionary(s.alerts.filter { $0.state != .ok }.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            silences = s.silences
            history = s.history
        case .change(let c):
            updated = c.time
            for id in c.gone {
                sensors[id] = nil
                history[id] = nil
                alerts = alerts.filter { $0.key.sensor.rawValue != id }
            }
            for sensor in c.sensors {
                sensors[sensor.id] = sensor
                if let value = sensor.value, let time = sensor.time {
                    Self.add(value, at: time, to: &history[sensor.id, default: []])
                }
            }
            for alert in c.alerts { alerts[alert.key] = alert.state == .ok ? nil : alert }
            if let s = c.silences { silences = s }
        case .error(let message):
            error = message
        }
    }

    /// Puts `value`, read at Unix time `time`, into its bucket of `buckets` (oldest first),
    /// and drops the buckets more than 10 minutes older than the newest.
    public static func add(_ value: Double, at time: Double, to buckets: inout [LiveBucket]) {
        let start = LiveBucket.start(of: time)
        if let i = buckets.lastIndex(where: { $0.time == start }) {
            buckets[i].add(value)
        } else {
            let at = buckets.lastIndex { $0.time < start }.map { $0 + 1 } ?? 0
            buckets.insert(LiveBucket(time: start, min: value, max: value, last: value), at: at)
        }
        let oldest = (buckets.last?.time ?? start) - LiveBucket.seconds * Int64(LiveBucket.count - 1)
        if let first = buckets.first, first.time < oldest { buckets.removeAll { $0.time < oldest } }
    }
}
