import Synchronization

/// What libmosquitto's callbacks (on the connection's thread) tell the client: the handler
/// of its events, and what the current connection has seen. The C callbacks get it as their
/// context pointer; the client keeps it alive for as long as libmosquitto may call.
final class MosquittoEventRelay: Sendable {
    private struct State {
        var handler: (@Sendable (MQTTEvent) -> Void)?
        /// Whether the broker accepted the current connection.
        var accepted = false
        /// The refusal code of the current connection's CONNACK, if it refused.
        var refusal: Int32?
        /// Messages handed to libmosquitto and not yet sent (QoS 0) or acknowledged (QoS 1).
        var outstanding = 0
    }

    private let state = Mutex(State())

    /// Sets who hears the events.
    func listen(_ handler: @escaping @Sendable (MQTTEvent) -> Void) { state.withLock { $0.handler = handler } }

    /// A new connection attempt: nothing seen yet.
    func attempt() {
        state.withLock {
            $0.accepted = false
            $0.refusal = nil
            $0.outstanding = 0
        }
    }

    /// Whether the broker accepted the current connection.
    var accepted: Bool { state.withLock { $0.accepted } }
    /// The current connection's refusal code, if the broker refused it.
    var refusal: Int32? { state.withLock { $0.refusal } }

    /// The connection ended: it is no longer accepted (publishing is refused until the next).
    func ended() { state.withLock { $0.accepted = false } }

    /// One more message queued, unless `limit` are waiting already (a broker that never
    /// acknowledges must not grow libmosquitto's queue without bound).
    func reserve(limit: Int) -> Bool {
        state.withLock { s in
            guard s.accepted, s.outstanding < limit else { return false }
            s.outstanding += 1
            return true
        }
    }

    /// A reservation that did not become a message.
    func release() { state.withLock { $0.outstanding = max(0, $0.outstanding - 1) } }

    /// The broker's CONNACK.
    func connected(code: Int32) {
        let handler = state.withLock { s -> (@Sendable (MQTTEvent) -> Void)? in
            if code == 0 {
                s.accepted = true
                return s.handler
            }
            s.refusal = code
            return nil
        }
        handler?(.connected)
    }

    /// A message arrived.
    func message(topic: String, payload: String) {
        state.withLock { $0.handler }?(.message(topic: topic, payload: payload))
    }

    /// Hands `event` to the handler.
    func emit(_ event: MQTTEvent) { state.withLock { $0.handler }?(event) }
}
