import Synchronization

/// How many times something has happened — a loop armed its observation, a service was woken
/// by the model — that a test waits for instead of yielding and hoping: the event itself
/// resumes the test, so nothing depends on how busy the machine is.
package final class EventCount: Sendable {
    private struct State {
        var count = 0
        var waits = ParkingLot<Int>()
    }

    private let state = Mutex(State())

    package init() {}

    /// How many times it has happened so far.
    package var value: Int { state.withLock { $0.count } }

    /// It happened `times` more times: resumes the waits for the count it has now.
    package func increment(by times: Int = 1) {
        let reached = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.count += times
            let count = s.count
            return s.waits.take { $0 <= count }.map(\.continuation)
        }
        for c in reached { c.resume() }
    }

    /// Returns true once the count is at least `count` (at once if it is); false after
    /// `limit` of real time, so a test that would hang fails instead.
    package func until(_ count: Int, within limit: Duration = .seconds(10)) async -> Bool {
        await withinRealTime(limit) { await self.reach(count) }
    }

    private func reach(_ count: Int) async {
        let id = state.withLock { $0.waits.ticket() }
        try? await parkTask(
            park: { c in
                state.withLock { s -> Result<Void, any Error>? in
                    if s.count >= count { return .success(()) }
                    return s.waits.park(id, count, c) ? nil : .failure(CancellationError())
                }
            },
            cancel: { [self] in state.withLock { $0.waits.cancel(id)?.continuation } })
    }
}
