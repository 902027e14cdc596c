import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The one sender of a service's lifecycle to its manager, for `run`, `notify` and `mqtt`:
/// READY, RELOADING with its monotonic time, STOPPING, STATUS= and the watchdog's pings, each
/// a ``ServiceState`` handed to the ``ServiceNotifier``.
public struct ServiceLifecycle: Sendable {
    private let notifier: any ServiceNotifier
    private let monotonicMicroseconds: @Sendable () -> UInt64

    /// - Parameters:
    ///   - notifier: sd_notify, or a no-op.
    ///   - monotonicMicroseconds: `CLOCK_MONOTONIC` now, in microseconds (injected for tests).
    public init(
        notifier: any ServiceNotifier,
        monotonicMicroseconds: @escaping @Sendable () -> UInt64 = ServiceLifecycle.monotonicMicroseconds
    ) {
        self.notifier = notifier
        self.monotonicMicroseconds = monotonicMicroseconds
    }

    /// The watchdog timeout the manager expects pings within, or nil.
    public var watchdogTimeout: Duration? { notifier.watchdogTimeout }

    /// `READY=1`, with the status line when given.
    public func ready(status: String? = nil) { notifier.notify(.ready(status: status)) }

    /// `RELOADING=1` with the monotonic time now.
    public func reloading() { notifier.notify(.reloading(monotonicMicroseconds: monotonicMicroseconds())) }

    /// `STOPPING=1`.
    public func stopping() { notifier.notify(.stopping) }

    /// `STATUS=` with `text`.
    public func status(_ text: String) { notifier.notify(.status(text)) }

    /// `WATCHDOG=1`.
    public func watchdog() { notifier.notify(.watchdog) }

    /// The watchdog's pings every quarter of its timeout on `clock`, for a service whose work
    /// has no loop of its own to ping from (`notify`, `mqtt`); nil without a watchdog, so an
    /// idle service has no timer. Run on the service's executor: if its work blocks that, the
    /// pings stop and the manager restarts it.
    package func watchdogPings<C: RunClock>(on clock: C) -> ClosureService? {
        guard let timeout = watchdogTimeout else { return nil }
        return ClosureService { [self] in
            while (try? await clock.sleep(for: timeout / 4)) != nil { watchdog() }
        }
    }

    /// `CLOCK_MONOTONIC` now, in microseconds: the clock `MONOTONIC_USEC=` is on (systemd's,
    /// not the boot clock the daemon waits on).
    public static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(max(0, ts.tv_sec)) * 1_000_000 + UInt64(max(0, ts.tv_nsec)) / 1000
    }
}
