#if canImport(Glibc)
import Glibc
#endif

/// Waits `duration` of real time (`CLOCK_BOOTTIME`, the clock behind `ContinuousClock`)
/// with a thread of its own, not with the concurrency runtime's timer: that one runs on a
/// libdispatch worker thread, and the first such worker starts libdispatch's pool monitor,
/// which then wakes the process every second for good (see ``DaemonExecutor``). Used for
/// the daemon's rare waits (READY's wait for discoveries, the watchdog heartbeat).
/// Cancellation ends the wait at once (throwing `CancellationError`); the thread finishes
/// its sleep alone.
func sleepOnThread(for duration: Duration) async throws {
    let done = ChangeSignal()
    let ns = max(0, duration.nanoseconds)
    let started = PollThread.start {
        var ts = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var left = timespec()
        while clock_nanosleep(CLOCK_BOOTTIME, 0, &ts, &left) == EINTR { ts = left }
        done.fire()
    }
    if !started { done.fire() }
    await untilCancelled(done)
    try Task.checkCancellation()
}
