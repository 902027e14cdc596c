import Dispatch
import Synchronization

/// The hand-off between a producer on a thread of its own and one consumer: at most
/// ``capacity`` elements wait in it, and while it is full the producer waits for room.
///
/// So memory is bounded by the capacity, not by how far the producer could get ahead: the
/// live stream's reader thread reads nothing more from the socket while a slow `top` or MQTT
/// bridge holds its few messages (SPEC §22), and `simulate`'s scenario thread makes no more
/// stretches of samples than the polls are about to take. The consumer is a task
/// (``receive()``) or a thread (``next()``), one or the other.
package final class BoundedHandOff<Element: Sendable>: Sendable {
    private struct State {
        var buffered: [Element] = []
        /// Where the next element to hand out is in `buffered`.
        var head = 0
        /// The consumer task waiting for an element.
        var waitingTask: CheckedContinuation<Element?, any Error>?
        /// The consumer thread waits on ``arrived``.
        var waitingThread = false
        /// The producer's end: nil while it runs, else nil-error (it ended) or why.
        var ended: (any Error)??
        /// The consumer is gone: the producer stops at its next wait for room.
        var cancelled = false

        var count: Int { buffered.count - head }

        /// The next element, the end (`.success(nil)`, or the producer's error once), or nil:
        /// nothing yet, wait.
        mutating func take() -> Result<Element?, any Error>? {
            if count > 0 {
                let element = buffered[head]
                head += 1
                // Taken elements leave at once when none waits behind them, else at the
                // producer's next send: `buffered` holds the capacity at most, never every
                // element the producer stayed ahead with.
                if head == buffered.count {
                    buffered.removeAll(keepingCapacity: true)
                    head = 0
                }
                return .success(element)
            }
            if cancelled { return .success(nil) }
            if let ended {
                self.ended = .some(nil)
                return ended.map { .failure($0) } ?? .success(nil)
            }
            return nil
        }
    }

    /// The most elements held that the consumer has not taken.
    package let capacity: Int
    /// Counts the times the producer found no room and waited (the consumer is the slower).
    package let fullWaits = EventCount()
    private let state = Mutex(State())
    /// Counts the free places. Made at 0 and raised to the capacity: libdispatch refuses to
    /// free a semaphore below the value it was made with.
    private let room = DispatchSemaphore(value: 0)
    /// Wakes a consumer thread that found nothing (``next()``).
    private let arrived = DispatchSemaphore(value: 0)

    /// A hand-off holding at most `capacity` (at least 1) elements.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        for _ in 0..<self.capacity { room.signal() }
    }

    /// How many elements wait for the consumer now.
    package var buffered: Int { state.withLock { $0.count } }

    // MARK: - The producer (a thread of its own)

    /// Blocks the producer's thread until there is room for one element; false when the
    /// consumer has gone (the producer then stops).
    package func waitForRoom() -> Bool {
        if room.wait(timeout: .now()) == .timedOut {
            fullWaits.increment()
            room.wait()
        }
        return !state.withLock { $0.cancelled }
    }

    /// Hands `element` on; the producer waited for room first.
    package func send(_ element: Element) {
        let (task, thread) = state.withLock { s -> (CheckedContinuation<Element?, any Error>?, Bool) in
            if let c = s.waitingTask {
                s.waitingTask = nil
                return (c, false)
            }
            if s.head > 0 {
                s.buffered.removeFirst(s.head)
                s.head = 0
            }
            s.buffered.append(element)
            defer { s.waitingThread = false }
            return (nil, s.waitingThread)
        }
        if thread { arrived.signal() }
        guard let task else { return }
        // Taken at once: its place is free again.
        room.signal()
        task.resume(returning: element)
    }

    /// The producer is done: it ended (`error` nil) or broke. The consumer gets what is held
    /// first.
    package func finish(_ error: (any Error)?) {
        let (task, thread) = state.withLock { s -> (CheckedContinuation<Element?, any Error>?, Bool) in
            s.ended = .some(error)
            defer {
                s.waitingTask = nil
                s.waitingThread = false
            }
            return (s.waitingTask, s.waitingThread)
        }
        if thread { arrived.signal() }
        if let error { task?.resume(throwing: error) } else { task?.resume(returning: nil) }
    }

    // MARK: - The consumer (one task or one thread)

    /// The next element; nil at the end or once ``cancel()`` was called.
    ///
    /// - Throws: the error the producer finished with, once.
    package func receive() async throws -> Element? {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Element?, any Error>) in
            let now = state.withLock { s -> Result<Element?, any Error>? in
                guard let now = s.take() else {
                    s.waitingTask = c
                    return nil
                }
                return now
            }
            guard let now else { return }
            if case .success(.some) = now { room.signal() }
            c.resume(with: now)
        }
    }

    /// Like ``receive()`` for a consumer on a thread: blocks it until there is an element or
    /// the end.
    package func next() throws -> Element? {
        while true {
            let now = state.withLock { s -> Result<Element?, any Error>? in
                guard let now = s.take() else {
                    s.waitingThread = true
                    return nil
                }
                return now
            }
            guard let now else {
                arrived.wait()
                continue
            }
            if case .success(.some) = now { room.signal() }
            return try now.get()
        }
    }

    /// The consumer has gone: a waiting ``receive()`` or ``next()`` returns nil, and the
    /// producer stops at its next wait for room. Safe from any thread, more than once.
    package func cancel() {
        let (task, thread) = state.withLock { s -> (CheckedContinuation<Element?, any Error>?, Bool) in
            s.cancelled = true
            s.buffered.removeAll()
            s.head = 0
            defer {
                s.waitingTask = nil
                s.waitingThread = false
            }
            return (s.waitingTask, s.waitingThread)
        }
        room.signal()
        if thread { arrived.signal() }
        task?.resume(returning: nil)
    }
}
