/// Tells the service manager how the daemon is doing (sd_notify on systemd).
///
/// Contract for implementations: `notify` never blocks for long and never fails loudly;
/// outside a service manager it does nothing.
public protocol ServiceNotifier: Sendable {
    /// Sends newline-separated assignments, e.g. `READY=1\nSTATUS=12 sensors, 0 firing`.
    func notify(_ assignments: String)

    /// The watchdog timeout the manager expects pings within (`WATCHDOG_USEC`), or nil.
    var watchdogTimeout: Duration? { get }
}

/// A notifier for when no service manager listens (and for tests).
public struct NoOpNotifier: ServiceNotifier {
    /// A notifier that sends nothing.
    public init() {}
    /// Drops the assignments.
    public func notify(_ assignments: String) {}
    /// No watchdog.
    public var watchdogTimeout: Duration? { nil }
}
