import SensorLive
import SensorRuntime

/// One thing the runner's loop handles, from whichever source: the daemon's stream, the
/// broker's connection, the timer of coalesced values, a signal.
enum BridgeInput: Sendable {
    /// A message of the daemon's stream.
    case live(LiveMessage)
    /// The daemon's stream ended or could not be reached (the reason; nil: closed cleanly).
    case streamEnded(String?)
    /// What the broker's connection reports.
    case mqtt(MQTTEvent)
    /// The bridge's next deadline came.
    case tick
    /// SIGTERM, SIGINT (stop) or SIGHUP.
    case signal(DaemonSignal)
}
