#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Looks for polls hanging in the kernel and lets their pollers stand in for the ticks they
/// miss, so a sensor whose driver hangs still goes stale (SPEC §5).
///
/// It runs on a thread of its own, sleeping on the boot clock: as a task it would wake the
/// concurrency pool (a timer thread, a worker, a hop to the main actor) several times a
/// second for a check that almost always finds nothing. Real time only: a test's manual
/// clock has no hanging drivers.
final class StallWatch: Sendable {
    private struct State {
        var pollers: [SourcePoller] = []
        var stopped = false
    }

    private let state = Mutex(State())

    /// The shortest pause between two looks. Every wake-up costs tens of microseconds on a
    /// virtual machine; a hanging read is rare, and the ticks stood in for carry their own
    /// times, so looking once a second only delays a hung sensor's `stale` entry, by < 1 s.
    static var floor: Duration { .seconds(1) }

    /// Starts the watch thread; it looks once per shortest poll interval (at least every
    /// ``floor``) at the pollers last given to ``watch(_:)``.
    func start() {
        PollThread.start { [self] in loop() }
    }

    /// Replaces the pollers to look at (after sources started or stopped).
    func watch(_ pollers: [SourcePoller]) {
        state.withLock { $0.pollers = pollers }
    }

    /// Ends the watch; the thread leaves at its next wake-up and forgets the pollers now.
    func stop() {
        state.withLock {
            $0.stopped = true
            $0.pollers = []
        }
    }

    private func loop() {
        while true {
            let pause: Duration? = state.withLock { s in
                s.stopped ? nil : max(s.pollers.map(\.interval).min() ?? .seconds(1), Self.floor)
            }
            guard let pause else { return }
            let ns = pause.nanoseconds
            var ts = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
            var left = timespec()
            while clock_nanosleep(CLOCK_BOOTTIME, 0, &ts, &left) == EINTR { ts = left }
            for poller in state.withLock({ $0.pollers }) { poller.tickIfStalled() }
        }
    }
}
