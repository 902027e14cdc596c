/// What the configuration's `liveSocket` says (SPEC §22): where `run` listens for the live
/// stream, and where `watch`, `top` and `mqtt` connect.
public enum LiveSocketSetting: Sendable, Hashable {
    /// Not set: `live.sock` in the runtime directory (``RuntimeDirectory``).
    case runtimeDirectory
    /// `liveSocket: "/abs/path"`.
    case path(String)
    /// `liveSocket: false`: no stream.
    case off
}
