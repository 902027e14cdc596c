import SensorLive
import SensorRuntime

/// What following the daemon's stream brings (``LiveFollower``).
enum LiveFollowerEvent: Sendable {
    /// No connection could be made: no daemon yet, or it is restarting.
    case absent(SystemError)
    /// Connected; messages follow, starting with `hello`.
    case connected(path: String)
    /// A message of the stream.
    case message(LiveMessage)
    /// The connection ended: the daemon stopped, or sent a line that is not a message.
    case lost(reason: String)
}
