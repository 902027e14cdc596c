public import SensorDaemon
public import SensorRuntime

/// Adds the live stream (SPEC §22) to `run`: the ``ModelPublisher`` the executable puts in
/// the daemon's environment, which makes one ``LiveStreamServer`` listening at ``path``.
public struct LiveStreamPublisher: ModelPublisher {
    /// The socket's path.
    public let path: String
    /// The host name `hello` gives, and silences' `host` globs match.
    public let host: String
    /// Where the silences come from.
    public let silences: any LiveSilenceSource
    /// What the server did, for tests.
    package let events = LiveStreamEvents()

    /// - Parameters:
    ///   - path: where to listen (``LiveSocketPath/daemon(_:)``).
    ///   - host: the machine's name.
    ///   - silences: the journal's silences, or none.
    public init(path: String, host: String, silences: any LiveSilenceSource = NoLiveSilenceSource()) {
        self.path = path
        self.host = host
        self.silences = silences
    }

    /// The server, listening at ``path`` once it runs.
    @DaemonActor
    public func service(for model: DaemonModel) -> any Service {
        LiveStreamServer(path: path, model: model, host: host, silences: silences, events: events)
    }
}
