/// The `mqtt` section of a configuration (SPEC §24): where `sensorwatch mqtt` publishes the
/// daemon's live stream, and how. `run` ignores it; `check` validates it.
public struct MQTTConfiguration: Sendable, Hashable {
    /// The broker: `mqtt://HOST[:1883]` or `mqtts://HOST[:8883]`.
    public var broker: MQTTBrokerAddress
    /// The CA file that vouches for an `mqtts://` broker's certificate (absolute); nil: the
    /// system's CAs.
    public var ca: String?
    /// The login's user name, if the broker wants one.
    public var username: String?
    /// Where the password comes from, if any (read by `mqtt` when it starts, never kept here).
    public var password: SecretSource?
    /// The MQTT client id; nil: `sensorwatch-<host>`.
    public var clientID: String?
    /// The first level of every topic (`sensorwatch`).
    public var topicPrefix: String
    /// Home Assistant's discovery prefix (`homeassistant`); nil: no discovery.
    public var discoveryPrefix: String?
    /// The QoS of sensor values (0 or 1); alert states always go at QoS 1.
    public var qos: Int
    /// The shortest time between two publications of one sensor's value.
    public var every: Duration

    /// The default of ``topicPrefix``.
    public static let defaultTopicPrefix = "sensorwatch"
    /// The default of ``discoveryPrefix``.
    public static let defaultDiscoveryPrefix = "homeassistant"
    /// The default of ``every``.
    public static let defaultEvery = Duration.seconds(10)

    /// A section with the given values; the defaults are SPEC §24's.
    public init(
        broker: MQTTBrokerAddress, ca: String? = nil, username: String? = nil, password: SecretSource? = nil,
        clientID: String? = nil, topicPrefix: String = Self.defaultTopicPrefix,
        discoveryPrefix: String? = Self.defaultDiscoveryPrefix, qos: Int = 1, every: Duration = Self.defaultEvery
    ) {
        self.broker = broker
        self.ca = ca
        self.username = username
        self.password = password
        self.clientID = clientID
        self.topicPrefix = topicPrefix
        self.discoveryPrefix = discoveryPrefix
        self.qos = qos
        self.every = every
    }
}
