/// Why a text written by a person is not well formed — a glob, a duration, a series of
/// samples: what is wrong, in words for that person (`missing unit (use ns, us, ms, s, m, h
/// or d)`, `glob "x[" has an unclosed [`). The callers add where the text stood.
public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// The error with its message.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
