import SensorLive
import SensorMQTT
import SensorRuntime
import Synchronization

/// A ``LiveStreamSource`` whose connections the test feeds: each ``messages()`` call is the
/// next connection; ``send(_:)`` goes to the current one, ``end()`` closes it.
final class FakeStreamSource: LiveStreamSource {
    private struct State {
        var current: AsyncThrowingStream<LiveMessage, any Error>.Continuation?
        var connections = 0
    }

    private let state = Mutex(State())
    /// Counts the connections made.
    let connected = EventCount()

    func messages() throws -> AsyncThrowingStream<LiveMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LiveMessage.self)
        state.withLock {
            $0.current = continuation
            $0.connections += 1
        }
        connected.increment()
        return stream
    }

    /// How many connections were made.
    var connections: Int { state.withLock { $0.connections } }

    func send(_ message: LiveMessage) { _ = state.withLock { $0.current }?.yield(message) }

    /// The daemon closes the connection.
    func end() { state.withLock { $0.current }?.finish() }
}
