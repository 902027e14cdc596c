public import SensorLive

/// The daemon's live stream at a Unix socket, through ``LiveConnection`` (its reader thread,
/// its bounded lines, its decoder).
public struct SocketStreamSource: LiveStreamSource {
    /// The socket's path.
    public let path: String

    /// The stream at `path`.
    public init(path: String) { self.path = path }

    /// A new connection to the socket and its messages, decoded by ``LiveConnection``.
    public func messages() throws -> AsyncThrowingStream<LiveMessage, any Error> {
        try LiveConnection(path: path).messages()
    }
}
