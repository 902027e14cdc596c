/// Why there is no connection to the broker, by cause: a journal entry is written once per
/// cause (SPEC §24), not at every retry.
public struct MQTTProblem: Sendable, Hashable, CustomStringConvertible {
    /// The kind of cause; a change of kind (or of words) is a new cause.
    public enum Cause: String, Sendable, Hashable {
        /// The broker could not be reached, or the connection broke.
        case unreachable
        /// The broker answered and refused the login (a wrong user name or password).
        case loginRefused
        /// The TLS handshake failed: the broker's certificate is not vouched for, or TLS
        /// itself failed.
        case tls
    }

    /// The kind of cause.
    public var cause: Cause
    /// What happened, in words (never with the password).
    public var words: String

    /// A problem of `cause`, said in `words`.
    public init(_ cause: Cause, _ words: String) {
        self.cause = cause
        self.words = words
    }

    /// The words.
    public var description: String { words }
}
