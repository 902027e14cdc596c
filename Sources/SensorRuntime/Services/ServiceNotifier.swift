/// Tells the service manager how the daemon is doing (sd_notify on systemd): the transport
/// under ``ServiceLifecycle``.
///
/// Contract for implementations: `notify` never blocks for long and never fails loudly;
/// outside a service manager it does nothing.
public protocol ServiceNotifier: Sendable {
    /// Sends `state` as one datagram (``ServiceState/datagram``).
    func notify(_ state: ServiceState)

    /// The watchdog timeout the manager expects pings within (`WATCHDOG_USEC`), or nil.
    var watchdogTimeout: Duration? { get }
}

/// A notifier for when no service manager listens (and for tests).
public struct NoOpNotifier: ServiceNotifier {
    /// A notifier that sends nothing.
    public init() {}
    /// Drops `state`.
    public func notify(_ state: ServiceState) {}
    /// No watchdog.
    public var watchdogTimeout: Duration? { nil }
}
