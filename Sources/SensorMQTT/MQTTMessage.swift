/// One message to publish: topic, payload, QoS and whether the broker keeps it (retained).
public struct MQTTMessage: Sendable, Hashable, CustomStringConvertible {
    /// The topic (`sensorwatch/host/status`).
    public var topic: String
    /// The payload's text (a number, `ON`, JSON); empty removes a retained message.
    public var payload: String
    /// 0 (at most once) or 1 (at least once).
    public var qos: Int
    /// Whether the broker keeps it for later subscribers.
    public var retain: Bool

    /// A message with these parts.
    public init(topic: String, payload: String, qos: Int, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// `topic payload` (with ` (retained)`), as a test's failure shows it.
    public var description: String { "\(topic) \(payload)\(retain ? " (retained)" : "") q\(qos)" }
}
