/// The topics of one host (SPEC §24): states under `<prefix>/<host>/`, Home Assistant's
/// discovery configs under `<discoveryPrefix>/…/sensorwatch_<host>/`.
public struct MQTTTopics: Sendable, Hashable {
    /// The first level of the state topics.
    public let prefix: String
    /// The host name, made safe (``MQTTObjectNames/safe(_:)``).
    public let host: String
    /// Home Assistant's discovery prefix; nil: no discovery.
    public let discoveryPrefix: String?

    /// The topics of `host` (as the system names it; made safe here).
    public init(prefix: String, host: String, discoveryPrefix: String?) {
        self.prefix = prefix
        self.host = MQTTObjectNames.safe(host)
        self.discoveryPrefix = discoveryPrefix
    }

    /// `<prefix>/<host>/status`: `online`, or `offline` (also the last will).
    public var status: String { "\(prefix)/\(host)/status" }
    /// A sensor's value.
    public func sensorState(_ object: String) -> String { "\(prefix)/\(host)/sensor/\(object)/state" }
    /// An alert's `ON`/`OFF`.
    public func alertState(_ object: String) -> String { "\(prefix)/\(host)/alert/\(object)/state" }
    /// An alert's JSON attributes.
    public func alertAttributes(_ object: String) -> String { "\(prefix)/\(host)/alert/\(object)/attributes" }
    /// Home Assistant's node id of this host: `sensorwatch_<host>`, also the device's identifier.
    public var node: String { "sensorwatch_\(host)" }
    /// A sensor's discovery config; nil without discovery.
    public func sensorConfig(_ object: String) -> String? {
        discoveryPrefix.map { "\($0)/sensor/\(node)/\(object)/config" }
    }
    /// An alert's discovery config; nil without discovery.
    public func alertConfig(_ object: String) -> String? {
        discoveryPrefix.map { "\($0)/binary_sensor/\(node)/\(object)/config" }
    }
    /// Home Assistant's birth and will topic (`online` when it starts); nil without discovery.
    public var homeAssistantStatus: String? { discoveryPrefix.map { "\($0)/status" } }
}
