public import SensorCore
import SensorRuntime

/// What the bridge publishes, as a pure state machine (SPEC §24): the daemon's stream and
/// the broker's connection go in, the messages to publish now come out. The runner
/// (``MQTTBridgeRunner``) only moves them between the stream, the clock and the client.
///
/// Values coalesce: the bridge keeps the latest value of each sensor, publishes it at most
/// once per `every` (the latest wins), and everything again when the broker comes back.
/// Alert transitions are never held back; while there is no broker they wait in order
/// (bounded, ``HeldMessages``). Times are durations on the runner's clock.
public struct MQTTBridge: Sendable {
    /// What the bridge publishes, and where.
    public struct Settings: Sendable {
        /// The topics of this host.
        public var topics: MQTTTopics
        /// The device of the discovery configs.
        public var device: DiscoveryPayload.Device
        /// The QoS of values (alerts always go at QoS 1).
        public var qos: Int
        /// The shortest time between two publications of one sensor's value.
        public var every: Duration
        /// The rules: each (rule, sensor) pair they select has its binary sensor.
        public var rules: [Rule]
        /// The poll interval of a sensor's source, for `expire_after`.
        public var interval: @Sendable (SensorID) -> Duration

        /// Settings with these parts.
        public init(
            topics: MQTTTopics, device: DiscoveryPayload.Device, qos: Int, every: Duration, rules: [Rule],
            interval: @escaping @Sendable (SensorID) -> Duration
        ) {
            self.topics = topics
            self.device = device
            self.qos = qos
            self.every = every
            self.rules = rules
            self.interval = interval
        }
    }

    private struct SensorEntry {
        var info: SensorInfo
        let object: String
        var value: Double?
        /// When its value was last published (nil: never on this connection).
        var published: Duration?
        /// A value newer than the one published waits for `every` to pass.
        var pending = false
        let expireAfter: Duration
    }

    private struct AlertEntry {
        let object: String
        var label: String
        var alert: BridgeAlert
    }

    /// At most this many alert transitions wait for the broker.
    public static let heldLimit = 10_000

    private let settings: Settings
    private var names = MQTTObjectNames()
    private var sensors: [String: SensorEntry] = [:]
    private var sensorOrder: [String] = []
    private var alerts: [String: AlertEntry] = [:]
    private var alertOrder: [String] = []
    private var held = HeldMessages(limit: heldLimit)
    /// Topics of sensors that went while there was no broker: emptied when it is back.
    private var removals: [String] = []
    /// Whether the broker's connection is up.
    public private(set) var connected = false
    /// Whether the daemon's stream is up (its snapshot came, and it has not gone since).
    public private(set) var streaming = false

    /// A bridge that knows no sensor yet, without a broker or a stream.
    public init(settings: Settings) { self.settings = settings }

    /// How many alert transitions were dropped because more than ``heldLimit`` waited.
    public var dropped: Int { held.dropped }
    /// How many alert transitions wait for the broker.
    public var heldCount: Int { held.count }

    /// `expire_after` of a sensor: 3 × its interval, at least 30 s, and at least 3 × `every`
    /// (a value that does not change is published again every third of it, see ``due(now:)``).
    public func expireAfter(_ id: SensorID) -> Duration {
        max(settings.interval(id) * 3, .seconds(30), settings.every * 3)
    }

    // MARK: - The daemon's stream

    /// The stream's snapshot (at its start and after each reconnect): the sensors now, and
    /// the alerts that are pending or firing. Sensors known before and missing now are gone.
    public mutating func snapshot(
        sensors list: [BridgeSensor], alerts firing: [BridgeAlert], now: Duration
    ) -> [MQTTMessage] {
        streaming = true
        var out: [MQTTMessage] = []
        let ids = Set(list.map(\.info.id.rawValue))
        for id in sensorOrder where !ids.contains(id) { out += remove(id) }
        for sensor in list {
            if sensors[sensor.info.id.rawValue] == nil {
                add(sensor)
            } else {
                sensors[sensor.info.id.rawValue]?.info = sensor.info
                sensors[sensor.info.id.rawValue]?.value = sensor.value
                sensors[sensor.info.id.rawValue]?.pending = true
            }
        }
        // Every alert not in the snapshot is OFF now (it resolved while the stream was away).
        let given = Set(firing.map { MQTTObjectNames.alertKey(rule: $0.rule, sensor: $0.sensor) })
        for key in alertOrder where !given.contains(key) { alerts[key]?.alert.firing = false }
        for alert in firing { update(alert) }
        guard connected else { return [] }
        return out + everything(now: now)
    }

    /// A change of the stream: the sensors that changed (whole), the alerts that changed
    /// (whole; resolved ones `firing: false`), and the ids of the sensors that went.
    public mutating func change(
        sensors changed: [BridgeSensor], alerts changedAlerts: [BridgeAlert], gone: [String], now: Duration
    ) -> [MQTTMessage] {
        var out: [MQTTMessage] = []
        for id in gone where sensors[id] != nil { out += remove(id) }
        for sensor in changed {
            let id = sensor.info.id.rawValue
            guard var entry = sensors[id] else {
                // Appeared: announced, then published like any value.
                add(sensor)
                out += configs(of: id)
                out += publishValue(id, now: now)
                for key in alertOrder {
                    if let alert = alerts[key], alert.alert.sensor == id { out += alertMessages(alert) }
                }
                continue
            }
            let relabelled = entry.info != sensor.info
            entry.info = sensor.info
            if entry.value != sensor.value {
                entry.value = sensor.value
                entry.pending = true
            }
            sensors[id] = entry
            if relabelled { out += configs(of: id) }
            if entry.pending, entry.published.map({ now - $0 >= settings.every }) ?? true {
                out += publishValue(id, now: now)
            }
        }
        for alert in changedAlerts { out += transition(alert) }
        return connected ? out : []
    }

    /// The daemon's stream is gone: the host is `offline` until it is back.
    public mutating func streamLost() -> [MQTTMessage] {
        streaming = false
        return connected ? [status()] : []
    }

    // MARK: - The broker

    /// The broker accepted the connection: `online` (or `offline` without the daemon's
    /// stream), every config, the alert transitions that waited, in order, then the latest
    /// value of every sensor and every alert's state and attributes.
    public mutating func brokerConnected(now: Duration) -> [MQTTMessage] {
        connected = true
        return everything(now: now)
    }

    /// The broker's connection is gone: alert transitions wait, values coalesce.
    public mutating func brokerLost() {
        connected = false
        for id in sensorOrder { sensors[id]?.published = nil }
    }

    /// Home Assistant's birth message (`online` on its status topic): every config again.
    public func homeAssistantStarted() -> [MQTTMessage] {
        guard connected, settings.topics.discoveryPrefix != nil else { return [] }
        return sensorOrder.flatMap(configs(of:))
    }

    /// Messages the client did not take (the connection went meanwhile, or its queue was
    /// full): alert transitions wait for the next connection; values are published again
    /// with everything else then.
    public mutating func unsent(_ messages: [MQTTMessage]) {
        let alertLevel = "\(settings.topics.prefix)/\(settings.topics.host)/alert/"
        for m in messages where m.topic.hasPrefix(alertLevel) { held.append(m) }
    }

    // MARK: - Time

    /// What is due at `now`: values that waited for `every`, unchanged values to publish
    /// again before Home Assistant's `expire_after` runs out, held alert transitions.
    public mutating func due(now: Duration) -> [MQTTMessage] {
        guard connected else { return [] }
        var out = held.drain()
        for id in sensorOrder {
            guard let entry = sensors[id], entry.value != nil, let published = entry.published else { continue }
            if entry.pending ? now - published >= settings.every : now - published >= entry.expireAfter / 3 {
                out += publishValue(id, now: now)
            }
        }
        return out
    }

    /// When ``due(now:)`` next has something to publish; nil: nothing is waiting.
    public func nextDeadline() -> Duration? {
        guard connected else { return nil }
        var earliest: Duration?
        for id in sensorOrder {
            guard let entry = sensors[id], entry.value != nil, let published = entry.published else { continue }
            let at = published + (entry.pending ? settings.every : entry.expireAfter / 3)
            if earliest.map({ at < $0 }) ?? true { earliest = at }
        }
        return earliest
    }

    // MARK: - Messages

    private func status() -> MQTTMessage {
        MQTTMessage(topic: settings.topics.status, payload: streaming ? "online" : "offline", qos: 1, retain: true)
    }

    private mutating func everything(now: Duration) -> [MQTTMessage] {
        var out = [status()]
        out += removals.map { MQTTMessage(topic: $0, payload: "", qos: 1, retain: true) }
        removals = []
        out += sensorOrder.flatMap(configs(of:))
        out += held.drain()
        guard streaming else { return out }
        for id in sensorOrder { out += publishValue(id, now: now) }
        for key in alertOrder {
            if let entry = alerts[key] { out += alertMessages(entry) }
        }
        return out
    }

    private mutating func add(_ sensor: BridgeSensor) {
        let id = sensor.info.id.rawValue
        sensors[id] = SensorEntry(
            info: sensor.info, object: names.name(for: id), value: sensor.value, pending: true,
            expireAfter: expireAfter(sensor.info.id))
        sensorOrder.append(id)
        for rule in settings.rules where rule.selector.matches(sensor.info) {
            let key = MQTTObjectNames.alertKey(rule: rule.name, sensor: id)
            let name = label(sensor.info)
            if alerts[key] != nil {
                alerts[key]?.label = name
                continue
            }
            alerts[key] = AlertEntry(
                object: names.name(for: key), label: name,
                alert: BridgeAlert(
                    rule: rule.name, sensor: id, severity: rule.severity.rawValue, firing: false,
                    threshold: nil, runbook: rule.annotations.runbook))
            alertOrder.append(key)
        }
    }

    private func label(_ info: SensorInfo) -> String { info.label.isEmpty ? info.id.rawValue : info.label }

    /// The sensor's config and those of its alerts.
    private func configs(of id: String) -> [MQTTMessage] {
        guard let entry = sensors[id], let topic = settings.topics.sensorConfig(entry.object) else { return [] }
        var out = [
            MQTTMessage(
                topic: topic,
                payload: DiscoveryPayload.sensor(
                    entry.info, object: entry.object, device: settings.device, expireAfter: entry.expireAfter),
                qos: 1, retain: true)
        ]
        for key in alertOrder {
            guard let alert = alerts[key], alert.alert.sensor == id,
                let topic = settings.topics.alertConfig(alert.object)
            else {
                continue
            }
            out.append(
                MQTTMessage(
                    topic: topic,
                    payload: DiscoveryPayload.alert(
                        rule: alert.alert.rule, sensor: entry.info, object: alert.object, device: settings.device),
                    qos: 1, retain: true))
        }
        return out
    }

    private mutating func publishValue(_ id: String, now: Duration) -> [MQTTMessage] {
        guard var entry = sensors[id] else { return [] }
        entry.pending = false
        guard let value = entry.value else {
            sensors[id] = entry
            return []
        }
        entry.published = now
        sensors[id] = entry
        return [
            MQTTMessage(
                topic: settings.topics.sensorState(entry.object), payload: NumberText.number(value), qos: settings.qos,
                retain: true)
        ]
    }

    private func alertMessages(_ entry: AlertEntry) -> [MQTTMessage] {
        [
            MQTTMessage(
                topic: settings.topics.alertState(entry.object), payload: entry.alert.firing ? "ON" : "OFF", qos: 1,
                retain: true),
            MQTTMessage(
                topic: settings.topics.alertAttributes(entry.object), payload: entry.alert.attributesJSON, qos: 1,
                retain: true),
        ]
    }

    /// Takes what the stream says of an alert, keeping what only the rule knows (its runbook).
    @discardableResult
    private mutating func update(_ alert: BridgeAlert) -> (entry: AlertEntry, isNew: Bool) {
        let key = MQTTObjectNames.alertKey(rule: alert.rule, sensor: alert.sensor)
        var merged = alert
        if let old = alerts[key] {
            merged.runbook = alert.runbook ?? old.alert.runbook
            if merged.severity.isEmpty { merged.severity = old.alert.severity }
            alerts[key]?.alert = merged
            return (alerts[key]!, false)
        }
        let entry = AlertEntry(
            object: names.name(for: key), label: sensors[alert.sensor].map { label($0.info) } ?? alert.sensor,
            alert: merged)
        alerts[key] = entry
        alertOrder.append(key)
        return (entry, true)
    }

    /// An alert that changed: its state and attributes at once, or held while there is no broker.
    private mutating func transition(_ alert: BridgeAlert) -> [MQTTMessage] {
        let (entry, isNew) = update(alert)
        var out: [MQTTMessage] = []
        if isNew, let topic = settings.topics.alertConfig(entry.object) {
            let info =
                sensors[alert.sensor]?.info
                ?? SensorInfo(id: SensorID(rawValue: alert.sensor), label: entry.label, quantity: .temperature)
            out.append(
                MQTTMessage(
                    topic: topic,
                    payload: DiscoveryPayload.alert(
                        rule: alert.rule, sensor: info, object: entry.object, device: settings.device),
                    qos: 1, retain: true))
        }
        out += alertMessages(entry)
        guard connected else {
            for m in out { held.append(m) }
            return []
        }
        return out
    }

    /// A sensor that went: its configs and state topics, and those of its alerts, removed
    /// (empty retained messages).
    private mutating func remove(_ id: String) -> [MQTTMessage] {
        guard let entry = sensors[id] else { return [] }
        var topics = [settings.topics.sensorConfig(entry.object), settings.topics.sensorState(entry.object)]
        for key in alertOrder {
            guard let alert = alerts[key], alert.alert.sensor == id else { continue }
            topics += [
                settings.topics.alertConfig(alert.object), settings.topics.alertState(alert.object),
                settings.topics.alertAttributes(alert.object),
            ]
            alerts[key] = nil
        }
        alertOrder.removeAll { alerts[$0] == nil }
        sensors[id] = nil
        sensorOrder.removeAll { $0 == id }
        guard connected else {
            removals += topics.compactMap { $0 }
            return []
        }
        return topics.compactMap { $0 }.map { MQTTMessage(topic: $0, payload: "", qos: 1, retain: true) }
    }
}
