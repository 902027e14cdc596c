public import SensorLive

/// Where the bridge reads the daemon's live stream (SPEC §22): the seam between the bridge
/// and the socket (``SocketStreamSource``), so the runner's tests give the messages themselves.
///
/// Implementation requirements: each call is one connection; its messages end when the
/// daemon closes it (the stream finishes) or breaks it (it throws), and ending the iteration
/// closes it.
public protocol LiveStreamSource: Sendable {
    /// Connects and returns the connection's messages.
    ///
    /// - Throws: why no connection could be made (no daemon listens, say).
    func messages() throws -> AsyncThrowingStream<LiveMessage, any Error>
}
