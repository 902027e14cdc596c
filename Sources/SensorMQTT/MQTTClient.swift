public import SensorRuntime

/// A connection to one MQTT broker, kept up in the background: the seam between the bridge
/// and libmosquitto (``MosquittoClient``), so the bridge's tests run on a fake.
///
/// Implementation requirements: after ``start(_:)`` the client connects, and after each lost
/// or refused connection tries again with backoff (1 s doubling to 60 s), until ``stop(with:)``.
/// Events reach the handler one at a time, in order. ``publish(_:)`` and ``subscribe(_:)``
/// never block the caller.
public protocol MQTTClient: Sendable {
    /// Starts connecting; `events` hears of every connection, loss and arriving message.
    ///
    /// - Throws: ``SystemError`` when the connection's thread cannot be made.
    func start(_ events: @escaping @Sendable (MQTTEvent) -> Void) throws(SystemError)

    /// Queues `message` on the connection; false when there is none now (the caller keeps
    /// what it must publish when ``MQTTEvent/connected`` comes).
    func publish(_ message: MQTTMessage) -> Bool

    /// Subscribes to `filter` on the connection now (QoS 1); false when there is none.
    func subscribe(_ filter: String) -> Bool

    /// Publishes `final` (the `offline` status), disconnects cleanly (so the broker sends no
    /// last will) and stops; nothing is tried again. Returns once the connection's thread ended.
    func stop(with final: MQTTMessage?) async
}
