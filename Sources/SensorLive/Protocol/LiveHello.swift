package import SensorRuntime

/// The stream's first message (SPEC §22): who speaks.
public struct LiveHello: Sendable, Hashable {
    /// The protocol version this build speaks.
    public static let currentVersion = 1

    /// The protocol's version (1).
    public var version: Int
    /// The daemon's host name.
    public var host: String
    /// The daemon's process id.
    public var pid: Int
    /// When the daemon started, Unix seconds.
    public var started: Double

    /// A hello as given.
    public init(version: Int = LiveHello.currentVersion, host: String, pid: Int, started: Double) {
        self.version = version
        self.host = host
        self.pid = pid
        self.started = started
    }

    /// The members after `type`.
    package var members: [JSONObject.Member] {
        [
            JSONObject.Member(key: "version", value: .integer(Int64(version))), .string("host", host),
            JSONObject.Member(key: "pid", value: .integer(Int64(pid))), .time("started", started),
        ]
    }

    /// The hello a message's members hold.
    package init(_ f: LiveFields) throws(LiveProtocolError) {
        self.init(
            version: try f.integer("version"), host: try f.string("host"), pid: try f.integer("pid"),
            started: try f.time("started"))
    }
}
