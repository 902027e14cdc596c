import CLinux
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// ``BootClock``'s alarm: a one-shot kernel timer (`timerfd` on `CLOCK_BOOTTIME`) that its
/// thread blocks on in `read(2)`.
///
/// Arming and disarming are one system call each and wake nobody, so a stall watch armed
/// around every poll costs no wake-up while polls keep up; an expiry wakes exactly the
/// waiting thread (no timer thread between). That is what keeps 12 zones polled once a
/// second at one wake-up a second (`bench/wakeups.sh`, figures in bench/README.md).
final class BootClockAlarm: ClockAlarm {
    private let fd: Int32
    /// Rung for good; guarded so that an arming cannot undo a ring (a timer setting resets
    /// its expiry count, which would lose the ring's expiry).
    private let state = Mutex<(rung: Bool, deadline: Int64?)>((false, nil))

    init() { fd = sw_timer_create() }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    func arm(after: Duration) {
        let ns = max(after.nanoseconds, 1)
        state.withLock { s in
            guard !s.rung else { return }
            s.deadline = Self.bootNanoseconds() + ns
            if fd >= 0 { _ = sw_timer_arm(fd, ns) }
        }
    }

    func disarm() {
        state.withLock { s in
            guard !s.rung else { return }
            s.deadline = nil
            if fd >= 0 { _ = sw_timer_arm(fd, -1) }
        }
    }

    func ring() {
        state.withLock { s in
            s.rung = true
            if fd >= 0 { _ = sw_timer_arm(fd, 1) }
        }
    }

    func sleep(for duration: Duration) {
        arm(after: duration)
        wait()
    }

    func wait() {
        guard fd >= 0 else { return waitWithoutTimer() }
        if state.withLock({ $0.rung }) { return }
        var expirations: UInt64 = 0
        while true {
            let n = withUnsafeMutableBytes(of: &expirations) { Glibc.read(fd, $0.baseAddress, 8) }
            if n == 8 || (n < 0 && errno != EINTR) { break }
        }
        state.withLock { $0.deadline = nil }
    }

    /// Only when the kernel gave no timer (no file descriptor left): sleeps to the armed
    /// deadline in slices of at most a second, so that a ring still ends it within one.
    private func waitWithoutTimer() {
        while true {
            let (rung, deadline) = state.withLock { ($0.rung, $0.deadline) }
            let left = deadline.map { $0 - Self.bootNanoseconds() } ?? 1_000_000_000
            if rung || left <= 0 { break }
            let slice = min(left, 1_000_000_000)
            var ts = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            _ = clock_nanosleep(CLOCK_BOOTTIME, 0, &ts, nil)
        }
        state.withLock { $0.deadline = nil }
    }

    static func bootNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
