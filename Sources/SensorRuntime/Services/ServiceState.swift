/// What a service tells its manager (sd_notify(3)), one datagram each: the typed form of
/// the assignments `run`, `notify` and `mqtt` send through ``ServiceLifecycle``, so that none
/// spells them itself.
public enum ServiceState: Hashable, Sendable {
    /// Started, or done reloading: `READY=1`, with `STATUS=` when there is a status line.
    case ready(status: String?)
    /// Re-reading the configuration: `RELOADING=1` with `MONOTONIC_USEC=`, the
    /// `CLOCK_MONOTONIC` time it began, which systemd's `Type=notify-reload` needs to tell
    /// this reload from one it asked for earlier.
    case reloading(monotonicMicroseconds: UInt64)
    /// Stopping: `STOPPING=1`.
    case stopping
    /// Alive: `WATCHDOG=1`, the watchdog's ping.
    case watchdog
    /// A one-line status (`STATUS=12 sensors, 0 faulty, 1 firing`).
    case status(String)

    /// The datagram: newline-separated assignments.
    public var datagram: String {
        switch self {
        case .ready(let status): return "READY=1" + (status.map { "\nSTATUS=" + $0 } ?? "")
        case .reloading(let microseconds): return "RELOADING=1\nMONOTONIC_USEC=\(microseconds)"
        case .stopping: return "STOPPING=1"
        case .watchdog: return "WATCHDOG=1"
        case .status(let text): return "STATUS=" + text
        }
    }
}
