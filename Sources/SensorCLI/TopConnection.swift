/// Where `top`'s data comes from, as its header says.
enum TopConnection: Sendable, Hashable {
    /// Not yet connected (the first try).
    case connecting
    /// The daemon's stream.
    case live
    /// The daemon went away at this Unix time; `top` tries again.
    case gone(since: Double)
    /// No daemon at start: `top` runs its own readers and rules.
    case standalone
}
