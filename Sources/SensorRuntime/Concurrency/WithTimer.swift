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
    await withTaskGroup(of: TimerRaceOutcome<T>.self) { group in
        group.addTask { .done(await work()) }
        group.addTask { .timerEnded(ranOut: await timer()) }
        var result: T?
        while let outcome = await group.next() {
            switch outcome {
            case .done(let value):
                result = value
                group.cancelAll()
            case .timerEnded(ranOut: true):
                group.cancelAll()
                return nil
            case .timerEnded(ranOut: false):
                continue
            }
        }
        return result
    }
}

/// Whether `work` ended within `limit` of real time (it is cancelled when not): the bound on
/// a test's wait for an event (``EventCount/until(_:within:)``, ``VirtualClock/until(_:within:)``),
/// so a test that would hang fails instead.
func withinRealTime(_ limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
    await withTimer({ (try? await ContinuousClock().sleep(for: limit)) != nil }, work) != nil
}
