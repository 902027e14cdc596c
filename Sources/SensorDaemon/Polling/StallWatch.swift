import SensorRuntime
import Synchronization

/// Notices a poll hanging in the kernel, so its source's sensors still go stale (SPEC §5),
/// without waking anything while polls keep up.
///
/// The poll thread arms the watch's alarm (a one-shot kernel timer on the boot clock, a
/// manual clock's in tests) when a poll starts and disarms it when the poll returns: no
/// thread woken. Only a poll still running when the alarm expires wakes the watch's own
/// thread, which stands in for the ticks the poll misses (``SourcePoller/tickIfStalled()``)
/// and re-arms for the next one.
final class StallWatch: Sendable {
    private let alarm: any ClockAlarm
    private let stopped = Atomic<Bool>(false)

    /// Starts the watch thread, waiting on `alarm` (of the poll's clock); `onExpiry` runs on
    /// it each time the armed alarm expires.
    ///
    /// - Parameter source: the source's key, as a failure to start names it.
    /// - Throws: ``SystemError`` when no thread could be made.
    init(
        alarm: any ClockAlarm, source: String, onExpiry: @escaping @Sendable () -> Void
    ) throws(SystemError) {
        self.alarm = alarm
        try DetachedThread.start("the stall watch of \(source)") { [self] in loop(onExpiry) }
    }

    /// Expires once, `after` from now (replacing any earlier arming).
    func arm(after: Duration) { alarm.arm(after: after) }

    /// Cancels the armed expiry, if any.
    func disarm() { alarm.disarm() }

    /// Ends the watch thread (at once).
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        alarm.ring()
    }

    private func loop(_ onExpiry: @Sendable () -> Void) {
        while true {
            alarm.wait()
            if stopped.load(ordering: .sequentiallyConsistent) { break }
            onExpiry()
        }
    }
}
