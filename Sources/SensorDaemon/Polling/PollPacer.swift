package import SensorRuntime

/// Paces a source's poll thread on the run's clock: blocks it until the deadline of its
/// next tick, on an alarm of its own, and keeps run time (time since the run's start).
///
/// Called from that one thread only (plus ``wake()`` from anywhere).
package final class PollPacer: Sendable {
    private let runTime: RunTime
    private let alarm: any ClockAlarm

    /// - Parameters:
    ///   - clock: the run's clock.
    ///   - start: the instant of run time zero.
    package init<C: RunClock>(clock: C, start: C.Instant) {
        runTime = RunTime(clock: clock, start: start)
        alarm = clock.makeAlarm()
    }

    /// The run time now.
    var now: Timestamp { runTime.now }

    /// Blocks the calling thread until `deadline` (run time), or until ``wake()``.
    func sleep(until deadline: Timestamp) {
        alarm.sleep(for: .nanoseconds(deadline.nanoseconds - now.nanoseconds))
    }

    /// Ends the current and every later sleep at once (used when stopping).
    func wake() { alarm.ring() }

    /// Another alarm of the same clock (for the source's ``StallWatch``).
    func makeAlarm() -> any ClockAlarm { runTime.clock.makeAlarm() }
}
