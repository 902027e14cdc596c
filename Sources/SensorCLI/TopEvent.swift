/// What wakes `top`'s loop.
enum TopEvent: Sendable {
    /// Bytes the terminal sent (keys).
    case input([UInt8])
    /// The terminal's input ended (it went away).
    case inputClosed
    /// A signal: SIGWINCH, or one that ends it.
    case signal(Int32)
    /// The stream (``LiveFollower``).
    case live(LiveFollowerEvent)
    /// A whole second passed: the clock in the header.
    case tick
    /// A frame held back by the 100 ms pacing is due.
    case frameDue
}
