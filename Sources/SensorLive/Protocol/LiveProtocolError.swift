/// Why a line of the live stream (SPEC §22) is not a message: not JSON, not an object, a
/// key missing or of the wrong kind, an unknown `type`, a line too long. Its text is for a
/// person (`watch` prints it, the daemon sends it back in an `error` message).
public struct LiveProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for a person: `snapshot: sensors[3]: needs id and quantity`.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
