public import SensorConfig
/// Where the live stream's socket is (SPEC §22): the configuration's `liveSocket`, else
/// `live.sock` in the runtime directory by §19's rule; nil when `liveSocket: false`.
///
/// The daemon listens at ``daemon(_:)``; `watch`, `top` and `mqtt` connect to
/// ``client(_:)``, which also looks in the system service's directory (so a user's client
/// finds the system daemon's stream).
public enum LiveSocketPath {
    /// The socket file's name in the runtime directory.
    public static let fileName = "live.sock"

    /// Where `run` listens; nil when the stream is off, or no runtime directory applies.
    public static func daemon(_ setting: LiveSocketSetting) -> String? {
        switch setting {
        case .off: return nil
        case .path(let p): return p
        case .runtimeDirectory: return RuntimeDirectory.forDaemon()?.file(fileName)
        }
    }

    /// Where a client connects; nil when the configuration turns the stream off.
    public static func client(_ setting: LiveSocketSetting) -> String? {
        switch setting {
        case .off: return nil
        case .path(let p): return p
        case .runtimeDirectory: return RuntimeDirectory.clientFile(fileName)
        }
    }
}
