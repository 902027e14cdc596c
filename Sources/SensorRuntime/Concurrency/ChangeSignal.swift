import Synchronization

/// A one-shot wake-up that can be fired before, during or after someone waits on it.
///
/// Observation `onChange` and task cancellation both fire it, from any thread; the waiter
/// resumes exactly once. Firing first makes the wait return at once, so a change (or a
/// cancellation) that lands between arming and suspending is never lost.
package final class ChangeSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    private let state = Mutex<State>(.idle)

    /// A signal not fired yet.
    package init() {}

    /// Suspends until ``fire()`` has been called (returns at once if it already was).
    ///
    /// Runs on the caller's actor: a nonisolated `async` function would hop to the global
    /// executor and back on every wait, waking a pool thread twice per poll cycle.
    package func wait(isolation: isolated (any Actor)? = #isolation) async {
        await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if case .fired = state { return true }
                state = .waiting(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Wakes the waiter, or makes the next wait return at once. Idempotent.
    package func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .fired }
            if case .waiting(let c) = state { return c }
            return nil
        }
        continuation?.resume()
    }
}
