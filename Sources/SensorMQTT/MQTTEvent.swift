/// What an ``MQTTClient`` reports about its connection, in the order it happened.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the login: everything is to be published (again).
    case connected
    /// The connection could not be made or was lost; the client tries again after `retryIn`.
    case disconnected(MQTTProblem, retryIn: Duration)
    /// A message arrived on a subscribed topic (Home Assistant's birth message).
    case message(topic: String, payload: String)
}
