/// Tasks parked until something resumes them — a clock's deadline, a readable descriptor, a
/// number of sleepers — the one way a task waits for what a thread or a test sees.
///
/// A value inside its owner's locked state, so parking, finding the due ones and a
/// cancellation happen under the owner's one lock, beside the owner's own bookkeeping
/// (arming an alarm, poking a poll). ``park(_:)`` is the asynchronous side: it takes a
/// ticket, parks, and ends the wait with `CancellationError` when the task is cancelled,
/// also when the cancellation comes before the task is parked. Each parked task is resumed
/// exactly once: by the owner (``take(where:)``) or by its cancellation.
struct ParkingLot<Payload: Sendable>: Sendable {
    /// A parked task: its ticket, what it waits for, and how to resume it.
    struct Parked: Sendable {
        let id: Int
        let payload: Payload
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The parked tasks, in the order they came.
    private(set) var parked: [Parked] = []
    private var nextID = 0
    /// Tickets whose task was cancelled before it parked.
    private var cancelledEarly: Set<Int> = []

    /// A ticket for one wait.
    mutating func ticket() -> Int {
        nextID += 1
        return nextID
    }

    /// Parks ticket `id`; false when its task was cancelled already (the caller resumes it
    /// with `CancellationError`).
    mutating func park(_ id: Int, _ payload: Payload, _ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        if cancelledEarly.remove(id) != nil { return false }
        parked.append(Parked(id: id, payload: payload, continuation: continuation))
        return true
    }

    /// Ticket `id`'s task was cancelled: its parked entry, removed; nil when it has not
    /// parked yet (it will not: ``park(_:_:_:)`` refuses it).
    mutating func cancel(_ id: Int) -> Parked? {
        guard let i = parked.firstIndex(where: { $0.id == id }) else {
            cancelledEarly.insert(id)
            return nil
        }
        return parked.remove(at: i)
    }

    /// Removes and returns the parked tasks of `tickets`, in order.
    mutating func takeTickets(_ tickets: Set<Int>) -> [Parked] {
        let taken = parked.filter { tickets.contains($0.id) }
        parked.removeAll { tickets.contains($0.id) }
        return taken
    }

    /// Removes and returns the parked tasks whose payload `due` selects, in order.
    mutating func take(where due: (Payload) -> Bool) -> [Parked] {
        guard !parked.isEmpty else { return [] }
        let taken = parked.filter { due($0.payload) }
        parked.removeAll { due($0.payload) }
        return taken
    }
}

/// Parks the calling task: `park` runs (under the owner's lock) with a continuation and
/// says whether the task is parked (nil), or how to end at once; `cancel` runs at the task's
/// cancellation and returns the continuation to resume with `CancellationError`, if the task
/// was parked. The owner keeps a ``ParkingLot`` for both.
func parkTask(
    park: (CheckedContinuation<Void, any Error>) -> Result<Void, any Error>?,
    cancel: @Sendable () -> CheckedContinuation<Void, any Error>?
) async throws {
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            if let now = park(c) { c.resume(with: now) }
        }
    } onCancel: {
        cancel()?.resume(throwing: CancellationError())
    }
}
