import Glibc

/// What a signal asks the daemon to do.
public enum DaemonSignal: Sendable {
    /// SIGHUP: reload the configuration.
    case reload
    /// SIGTERM, SIGINT: stop.
    case stop

    /// What `signal` asks for: SIGHUP a reload, any other (SIGTERM, SIGINT) a stop.
    public init(_ signal: Int32) { self = signal == SIGHUP ? .reload : .stop }
}
