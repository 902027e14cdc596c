package import SensorRuntime

/// What the stream's server has done, counted for tests to wait for (``EventCount``).
package final class LiveStreamEvents: Sendable {
    /// The socket is listening.
    package let listening = EventCount()
    /// Connections taken as clients.
    package let accepted = EventCount()
    /// Connections refused (the 65th).
    package let refused = EventCount()
    /// Snapshots handed to a client's socket (wholly or in part).
    package let snapshots = EventCount()
    /// Changes built for a client.
    package let changes = EventCount()
    /// Waits begun for a client's full buffer to drain.
    package let fullWaits = EventCount()
    /// Clients closed, for any reason.
    package let closed = EventCount()
    /// The model was looked at.
    package let looks = EventCount()

    /// Nothing counted yet.
    package init() {}
}
