import CLinux
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Notices a poll hanging in the kernel, so its source's sensors still go stale (SPEC §5),
/// without waking anything while polls keep up.
///
/// The poll thread arms a one-shot kernel timer (a `timerfd` on the boot clock) when a poll
/// starts and disarms it when the poll returns: two system calls, no thread woken. Only a
/// poll still running when the timer expires wakes the watch's own thread, which stands in
/// for the ticks the poll misses (``SourcePoller/tickIfStalled()``) and re-arms for the
/// next one. Real time only: a test's manual clock has no hanging drivers.
final class StallWatch: Sendable {
    private let fd: Int32
    private let stopped = Atomic<Bool>(false)

    /// Starts the watch thread; `onExpiry` runs on it each time the armed timer expires.
    /// Returns nil when the kernel gives no timer (the source then has no stall watch).
    init?(onExpiry: @escaping @Sendable () -> Void) {
        let fd = sw_timer_create()
        guard fd >= 0 else { return nil }
        self.fd = fd
        // A watch without its thread is dropped (deinit closes the timer).
        guard PollThread.start({ [self] in loop(onExpiry) }) else { return nil }
    }

    /// Expires once, `after` from now (replacing any earlier arming).
    func arm(after: Duration) {
        _ = sw_timer_arm(fd, max(after.nanoseconds, 1))
    }

    /// Cancels the armed expiry, if any.
    func disarm() { _ = sw_timer_arm(fd, -1) }

    // Closed only when nobody can arm it any more (the thread holds the watch while it runs).
    deinit { Glibc.close(fd) }

    /// Ends the watch thread (at once).
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        _ = sw_timer_arm(fd, 1)
    }

    private func loop(_ onExpiry: @Sendable () -> Void) {
        var expirations: UInt64 = 0
        while true {
            let n = withUnsafeMutableBytes(of: &expirations) { Glibc.read(fd, $0.baseAddress, 8) }
            if stopped.load(ordering: .sequentiallyConsistent) { break }
            if n < 0 && errno != EINTR { break }
            if n == 8 { onExpiry() }
        }
    }
}
