/// What ended first in ``withTimer(_:_:)``: the work, with its result, or the timer (ran out,
/// or cut short).
enum TimerRaceOutcome<T: Sendable>: Sendable {
    case done(T)
    case timerEnded(ranOut: Bool)
}
