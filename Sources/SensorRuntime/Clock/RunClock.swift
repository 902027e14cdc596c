/// The clock the daemon, `record` and their tests run on, and the only way they wait.
///
/// Every timed wait goes through it: tasks sleep with the `Clock` requirement
/// `sleep(until:tolerance:)` (cancellable), and threads that must block — a source's poll
/// thread between polls, the stall watch between arms — block on one of its
/// ``ClockAlarm``s. The shipped one is ``BootClock`` (`CLOCK_BOOTTIME`, which keeps counting
/// through a suspend); tests give a manual clock, and so run the pacing, stall, watchdog
/// and metrics timing that ships, in virtual time.
public protocol RunClock: Clock, Sendable where Duration == Swift.Duration {
    /// A new alarm for one thread to block on. Each poll thread and each stall watch has its
    /// own; an alarm is never shared by two waiting threads.
    func makeAlarm() -> any ClockAlarm
}
