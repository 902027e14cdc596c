import SensorCore
import SensorRuntime

extension Task where Failure == Never {
    /// The task's value, or nil when it has not finished within `limit`.
    ///
    /// For tests whose point is that something ends (a cancelled loop, a stopped poller): a
    /// bare `await task.value` would pass by not hanging and hang the whole run when it
    /// breaks. On time-out the task is left running (it is stuck, which is the failure) and
    /// the caller records the issue. `limit` is a failure guard, never a timing assertion.
    /// The race is ``withTimer(_:_:)``'s, on the real clock.
    public func value(within limit: Duration) async -> Success? {
        await withTimer({ (try? await Task<Never, Never>.sleep(for: limit)) != nil }) {
            await self.valueUnlessGivenUp()
        } ?? nil
    }

    /// The task's value, or nil as soon as the waiting task is cancelled: awaiting `value`
    /// itself does not end on cancellation, so a stuck task would hold the race forever.
    /// The stuck task is not cancelled, only no longer waited for.
    private func valueUnlessGivenUp() async -> Success? {
        let ended = ChangeSignal()
        Task<Void, Never> {
            _ = await self.value
            ended.fire()
        }
        await untilSignalledOrCancelled(ended)
        return Task<Never, Never>.isCancelled ? nil : await value
    }
}
