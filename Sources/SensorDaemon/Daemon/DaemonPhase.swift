/// Where the daemon is in its life; one value instead of flags.
public enum DaemonPhase: Sendable, Equatable {
    /// Sources are being started; READY has not been sent.
    case starting
    /// READY was sent; polling and evaluating.
    case running
    /// A reload is in progress (`RELOADING=1` sent).
    case reloading
    /// Stopping (`STOPPING=1` sent); services are shutting down.
    case stopping
}
