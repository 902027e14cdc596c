/// Where a full-screen view draws: the seam between the screen and the tty it is shown on.
///
/// The shipped one is ``TTYTerminal`` (the process's own terminal); tests give a
/// ``MemoryTerminal``, which records every write, so a test asserts the bytes a frame costs.
///
/// Implementations must write each `write(_:)` call's bytes with one `write(2)` where the
/// system takes them whole: a frame that reaches the terminal in pieces is seen half drawn.
public protocol Terminal: Sendable {
    /// The terminal's size now, or nil when it cannot be told (not a terminal).
    func size() -> TerminalSize?

    /// Writes `bytes`, one frame or one control sequence, at once.
    func write(_ bytes: [UInt8])
}
