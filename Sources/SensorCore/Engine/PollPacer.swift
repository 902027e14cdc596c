#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Paces a source's poll thread: blocks it until the deadline of its next tick.
///
/// Implementations are called from that one thread only (plus `wake` from anywhere).
protocol PollPacer: Sendable {
    /// The run time now.
    var now: Timestamp { get }
    /// Blocks the calling thread until `deadline` (run time), or until ``wake()``.
    func sleep(until deadline: Timestamp)
    /// Ends a current or next sleep early (used when stopping).
    func wake()
}

/// Sleeps with `clock_nanosleep` on `CLOCK_BOOTTIME`, the clock behind `ContinuousClock`.
///
/// One timer expiry wakes the poll thread directly: no timer thread, no task hop. At a
/// 100 ms interval over a thousand sensors every avoided context switch is measurable.
struct BootClockPacer: PollPacer {
    /// `CLOCK_BOOTTIME` nanoseconds at run time zero.
    private let base: Int64

    /// - Parameter runTimeNow: the run time at this moment (the daemon's clock).
    init(runTimeNow: Timestamp) {
        base = Self.bootNanoseconds() - runTimeNow.nanoseconds
    }

    var now: Timestamp { Timestamp(nanoseconds: Self.bootNanoseconds() - base) }

    func sleep(until deadline: Timestamp) {
        let target = base + deadline.nanoseconds
        var ts = timespec(tv_sec: Int(target / 1_000_000_000), tv_nsec: Int(target % 1_000_000_000))
        while clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    /// Stopping does not wait for a sleeping poll thread: it ends at its next tick.
    func wake() {}

    private static func bootNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// Sleeps on any `Clock` (a manual one in tests) by parking the thread on a semaphore that
/// a task signals when the clock reaches the deadline.
final class ClockPacer<C: Clock>: PollPacer where C.Duration == Duration {
    private let clock: C
    private let start: C.Instant
    private let current = Mutex<(semaphore: DispatchSemaphore?, task: Task<Void, Never>?, stopped: Bool)>((nil, nil, false))

    init(clock: C, start: C.Instant) {
        self.clock = clock
        self.start = start
    }

    var now: Timestamp { Timestamp(nanoseconds: start.duration(to: clock.now).nanoseconds) }

    func sleep(until deadline: Timestamp) {
        let semaphore = DispatchSemaphore(value: 0)
        let target = start.advanced(by: .nanoseconds(deadline.nanoseconds))
        let proceed = current.withLock { c -> Bool in
            guard !c.stopped else { return false }
            c.semaphore = semaphore
            c.task = Task { [clock] in
                try? await clock.sleep(until: target, tolerance: nil)
                semaphore.signal()
            }
            return true
        }
        guard proceed else { return }
        semaphore.wait()
        current.withLock { $0 = (nil, nil, $0.stopped) }
    }

    func wake() {
        let c = current.withLock { c -> (DispatchSemaphore?, Task<Void, Never>?) in
            c.stopped = true
            return (c.semaphore, c.task)
        }
        c.1?.cancel()
        c.0?.signal()
    }
}
