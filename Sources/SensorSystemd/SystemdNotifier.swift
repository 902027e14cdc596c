import CSystemd
public import SensorRuntime
import Synchronization

/// Tells systemd how the daemon is doing through `sd_notify` (`READY=1`, `STATUS=…`,
/// `WATCHDOG=1`, `RELOADING=1`, `STOPPING=1`).
///
/// Outside a `Type=notify` service (`NOTIFY_SOCKET` unset) every call does nothing. The
/// environment is left in place (`unset_environment` 0) so a re-exec keeps working. A send
/// that fails is counted in `failures`, not thrown: the daemon must not stop over it.
public final class SystemdNotifier: ServiceNotifier {
    /// The watchdog timeout from `WATCHDOG_USEC` (only when `WATCHDOG_PID` is this process),
    /// read once at init; ping at half of it.
    public let watchdogTimeout: Duration?
    private let failed = Atomic<Int>(0)

    /// Reads the watchdog's timeout from the environment systemd set.
    public init() {
        var usec: UInt64 = 0
        watchdogTimeout = sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? .microseconds(Int64(usec)) : nil
    }

    /// Sends the assignments with `sd_notify`; a failure is counted in ``failures``, not thrown.
    public func notify(_ assignments: String) {
        if sd_notify(0, assignments) < 0 {
            failed.add(1, ordering: .relaxed)
        }
    }

    /// How many `sd_notify` calls returned an error.
    public var failures: Int { failed.load(ordering: .relaxed) }
}
