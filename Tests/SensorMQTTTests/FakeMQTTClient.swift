import SensorMQTT
import SensorRuntime
import Synchronization

/// An ``MQTTClient`` for tests: keeps what is published, lets the test say what the broker
/// does (``emit(_:)``), and counts publications so a test waits for them.
final class FakeMQTTClient: MQTTClient {
    private struct State {
        var events: (@Sendable (MQTTEvent) -> Void)?
        var connected = false
        var published: [MQTTMessage] = []
        var subscribed: [String] = []
        var final: MQTTMessage?
        var stopped = false
    }

    private let state = Mutex(State())
    /// Counts the messages taken.
    let publishes = EventCount()

    func start(_ events: @escaping @Sendable (MQTTEvent) -> Void) throws(SystemError) {
        state.withLock { $0.events = events }
    }

    func publish(_ message: MQTTMessage) -> Bool {
        let taken = state.withLock { s -> Bool in
            guard s.connected else { return false }
            s.published.append(message)
            return true
        }
        if taken { publishes.increment() }
        return taken
    }

    func subscribe(_ filter: String) -> Bool {
        state.withLock { s in
            s.subscribed.append(filter)
            return s.connected
        }
    }

    func stop(with final: MQTTMessage?) async {
        state.withLock {
            $0.final = final
            $0.stopped = true
        }
    }

    /// The broker does something: the client reports it as the real one would.
    func emit(_ event: MQTTEvent) {
        let handler = state.withLock { s -> (@Sendable (MQTTEvent) -> Void)? in
            switch event {
            case .connected: s.connected = true
            case .disconnected: s.connected = false
            case .message: break
            }
            return s.events
        }
        handler?(event)
    }

    var published: [MQTTMessage] { state.withLock { $0.published } }
    var subscribed: [String] { state.withLock { $0.subscribed } }
    var final: MQTTMessage? { state.withLock { $0.final } }
    var stopped: Bool { state.withLock { $0.stopped } }
}
