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
        public func advanced(by d: Duration) -> Instant { Instant(nanoseconds: nanoseconds + d.nanoseconds) }
        public func duration(to other: Instant) -> Duration { .nanoseconds(other.nanoseconds - nanoseconds) }
        public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    }

    private let sleepers: AlarmSleepers<BootClock>

    /// The boot clock; its task-sleeping thread starts with the first sleep.
    public init() {
        sleepers = AlarmSleepers(now: { Instant(nanoseconds: BootClockAlarm.bootNanoseconds()) }, alarm: BootClockAlarm())
    }

    public var now: Instant { Instant(nanoseconds: BootClockAlarm.bootNanoseconds()) }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleepers.sleep(until: deadline)
    }

    public func makeAlarm() -> any ClockAlarm { BootClockAlarm() }
}
