import Dispatch
import SensorCore
import SensorRuntime
import Synchronization

/// The hand-off between ``LiveConnection``'s reader thread and the task that iterates its
/// messages: at most ``capacity`` messages wait in it, and while it is full the thread reads
/// nothing from the socket.
///
/// So a consumer slower than the daemon (a `top` drawing on a slow terminal, an MQTT bridge
/// whose broker stalls) holds a few messages, not all the daemon wrote: the rest stays in the
/// socket, whose full buffer makes the daemon coalesce (SPEC §22: a slow client gets the
/// latest state, never a growing queue). Memory is bounded by the capacity, not by time.
final class LiveMessageChannel: Sendable {
    private struct State {
        var buffered: [LiveMessage] = []
        /// Where the next message to hand out is in `buffered`.
        var head = 0
        /// The consumer waiting for a message.
        var waiting: CheckedContinuation<LiveMessage?, any Error>?
        /// The producer's end: nil while it runs, else nil-error (the stream ended) or why.
        var ended: (any Error)??
        /// The consumer is gone: the producer stops at its next wait for room.
        var cancelled = false

        var count: Int { buffered.count - head }
    }

    /// The most messages held that the consumer has not taken.
    let capacity: Int
    /// Counts the times the producer found no room and waited (the consumer is the slower).
    let fullWaits = EventCount()
    private let state = Mutex(State())
    /// Counts the free places. Made at 0 and raised to the capacity: libdispatch refuses to
    /// free a semaphore below the value it was made with.
    private let room = DispatchSemaphore(value: 0)

    /// A channel holding at most `capacity` (at least 1) messages.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        for _ in 0..<self.capacity { room.signal() }
    }

    /// How many messages wait for the consumer now.
    var buffered: Int { state.withLock { $0.count } }

    // MARK: - The producer (a thread of its own)

    /// Blocks the producer's thread until there is room for one message; false when the
    /// consumer has gone (the producer then stops).
    func waitForRoom() -> Bool {
        if room.wait(timeout: .now()) == .timedOut {
            fullWaits.increment()
            room.wait()
        }
        return !state.withLock { $0.cancelled }
    }

    /// Hands `message` on; the producer waited for room first.
    func send(_ message: LiveMessage) {
        let consumer = state.withLock { s -> CheckedContinuation<LiveMessage?, any Error>? in
            if let c = s.waiting {
                s.waiting = nil
                return c
            }
            if s.head > 0 && s.head == s.buffered.count {
                s.buffered.removeAll(keepingCapacity: true)
                s.head = 0
            }
            s.buffered.append(message)
            return nil
        }
        guard let consumer else { return }
        // Taken at once: its place is free again.
        room.signal()
        consumer.resume(returning: message)
    }

    /// The producer is done: the stream ended (`error` nil) or broke. The consumer gets what
    /// is held first.
    func finish(_ error: (any Error)?) {
        let consumer = state.withLock { s -> CheckedContinuation<LiveMessage?, any Error>? in
            s.ended = .some(error)
            defer { s.waiting = nil }
            return s.waiting
        }
        if let error { consumer?.resume(throwing: error) } else { consumer?.resume(returning: nil) }
    }

    // MARK: - The consumer (one task)

    /// The next message; nil at the end of the stream or once ``cancel()`` was called.
    ///
    /// - Throws: the error the producer finished with, once.
    func receive() async throws -> LiveMessage? {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<LiveMessage?, any Error>) in
            let now = state.withLock { s -> Result<LiveMessage?, any Error>? in
                if s.count > 0 {
                    let message = s.buffered[s.head]
                    s.head += 1
                    return .success(message)
                }
                if s.cancelled { return .success(nil) }
                if let ended = s.ended {
                    s.ended = .some(nil)
                    return ended.map { .failure($0) } ?? .success(nil)
                }
                s.waiting = c
                return nil
            }
            guard let now else { return }
            if case .success(.some) = now { room.signal() }
            c.resume(with: now)
        }
    }

    /// The consumer has gone: a waiting ``receive()`` returns nil, and the producer stops
    /// at its next wait for room. Safe from any thread, more than once.
    func cancel() {
        let consumer = state.withLock { s -> CheckedContinuation<LiveMessage?, any Error>? in
            s.cancelled = true
            s.buffered.removeAll()
            s.head = 0
            defer { s.waiting = nil }
            return s.waiting
        }
        room.signal()
        consumer?.resume(returning: nil)
    }
}
