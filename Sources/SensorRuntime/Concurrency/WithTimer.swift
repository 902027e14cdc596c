/// The one timeout race: `work` and `timer` run side by side as child tasks, and whichever
/// ends first decides; the other is cancelled and awaited.
///
/// Returns `work`'s result, or nil when `timer` returned true first (a sleep that ran out).
/// A timer that returns false was cut short (the task is being cancelled) and decides
/// nothing: `work`, cancelled too, is awaited. The children inherit the caller's task
/// executor preference (the daemon's executor), so the race starts no libdispatch worker.
///
/// - Parameters:
///   - timer: a sleep through the injected clock; true when it ran out.
///   - work: what is waited for; it must end when cancelled.
public func withTimer<T: Sendable>(
    _ timer: @escaping @Sendable () async -> Bool, _ work: @escaping @Sendable () async -> T
) async -> T? {
    var late: T?
    return await withTimer(timer, keepingLate: &late, work)
}

/// ``withTimer(_:_:)``, and what `work` still returned after the timer ran out (it was
/// cancelled as it ended) is put in `late`: a caller whose work consumes something (an entry
/// read from a journal) keeps it for next time instead of losing it.
public func withTimer<T: Sendable>(
    _ timer: @escaping @Sendable () async -> Bool, keepingLate late: inout T?,
    _ work: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: TimerRaceOutcome<T>.self) { group in
        group.addTask { .done(await work()) }
        group.addTask { .timerEnded(ranOut: await timer()) }
        var result: T?
        var ranOut = false
        while let outcome = await group.next() {
            switch outcome {
            case .done(let value):
                if ranOut { late = value } else { result = value }
                group.cancelAll()
            case .timerEnded(ranOut: true) where result == nil:
                ranOut = true
                group.cancelAll()
            case .timerEnded:
                continue
            }
        }
        return result
    }
}

/// ``withTimer(_:_:)`` whose timer is a sleep of `limit` on `clock`, the injected one.
public func withTimer<C: RunClock, T: Sendable>(
    _ limit: Duration, on clock: C, _ work: @escaping @Sendable () async -> T
) async -> T? {
    await withTimer({ (try? await clock.sleep(for: limit)) != nil }, work)
}

/// ``withTimer(_:keepingLate:_:)`` whose timer is a sleep of `limit` on `clock`.
public func withTimer<C: RunClock, T: Sendable>(
    _ limit: Duration, on clock: C, keepingLate late: inout T?, _ work: @escaping @Sendable () async -> T
) async -> T? {
    await withTimer({ (try? await clock.sleep(for: limit)) != nil }, keepingLate: &late, work)
}

/// Whether `work` ended within `limit` of real time (it is cancelled when not): the bound on
/// a test's wait for an event (``EventCount/until(_:within:)``, ``VirtualClock/until(_:within:)``),
/// so a test that would hang fails instead.
func withinRealTime(_ limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
    // The concurrency runtime's own timer: a test's guard, never a wait of the daemon's.
    await withTimer({ (try? await Task.sleep(for: limit)) != nil }, work) != nil
}
