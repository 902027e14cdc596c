import Synchronization

extension Task where Failure == Never {
    /// The task's value, or nil when it has not finished within `limit`.
    ///
    /// For tests whose point is that something ends (a cancelled loop, a stopped poller): a
    /// bare `await task.value` would pass by not hanging and hang the whole run when it
    /// breaks. On time-out the task is left running (it is stuck, which is the failure) and
    /// the caller records the issue. `limit` is a failure guard, never a timing assertion.
    public func value(within limit: Duration) async -> Success? {
        let first = FirstOutcome<Success>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Success?, Never>) in
            first.arm(continuation, timer: Task<Void, Never> {
                try? await Task<Never, Never>.sleep(for: limit)
                first.finish(nil)
            })
            Task<Void, Never> { first.finish(await self.value) }
        }
    }
}

/// Resumes a waiter with whichever outcome comes first (the value or the time-out).
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(waiter: CheckedContinuation<Value?, Never>?, timer: Task<Void, Never>?, done: Value??)>((nil, nil, nil))

    func arm(_ waiter: CheckedContinuation<Value?, Never>, timer: Task<Void, Never>) {
        let early = state.withLock { s -> Value?? in
            s.timer = timer
            if let done = s.done { return done }
            s.waiter = waiter
            return nil
        }
        if let early {
            timer.cancel()
            waiter.resume(returning: early)
        }
    }

    func finish(_ value: Value?) {
        let (waiter, timer) = state.withLock { s -> (CheckedContinuation<Value?, Never>?, Task<Void, Never>?) in
            guard s.done == nil else { return (nil, nil) }
            s.done = .some(value)
            defer { s.waiter = nil }
            return (s.waiter, s.timer)
        }
        timer?.cancel()
        waiter?.resume(returning: value)
    }
}
