/// The clock that ships: `CLOCK_BOOTTIME`, which keeps counting while the machine is
/// suspended (so a sensor that was not read across a suspend is stale after it).
///
/// Threads block on its ``BootClockAlarm``s; tasks sleep on one thread of its own that
/// waits on one such alarm for the earliest task deadline (``AlarmSleepers``), not on the
/// concurrency runtime's timer: that runs on a libdispatch worker thread, and the first
/// such worker starts libdispatch's pool monitor, which then wakes the process every second
/// for good (see ``DaemonExecutor``).
public final class BootClock: RunClock {
    /// A point on the boot clock.
    public struct Instant: InstantProtocol {
        /// Nanoseconds since boot.
        var nanoseconds: Int64
        /// This instant moved by `d`.
        public func advanced(by d: Duration) -> Instant { Instant(nanoseconds: nanoseconds + d.nanoseconds) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { .nanoseconds(other.nanoseconds - nanoseconds) }
        /// Earlier than.
        public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    }

    private let sleepers: AlarmSleepers<BootClock>

    /// The boot clock, with the thread its tasks' sleeps end on.
    ///
    /// - Throws: ``SystemError`` when that thread could not be made.
    public init() throws(SystemError) {
        sleepers = try AlarmSleepers(
            now: { Instant(nanoseconds: BootClockAlarm.bootNanoseconds()) }, alarm: BootClockAlarm())
    }

    /// The boot clock now.
    public var now: Instant { Instant(nanoseconds: BootClockAlarm.bootNanoseconds()) }
    /// Nanoseconds, as the kernel counts.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends the task until `deadline` (cancellable: throws `CancellationError`).
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleepers.sleep(until: deadline)
    }

    /// A new kernel-timer alarm for one thread.
    public func makeAlarm() -> any ClockAlarm { BootClockAlarm() }
}
