/// How long to wait before the next connection attempt: 1 s, doubling after each failure,
/// at most 60 s; back to 1 s once a connection was accepted (SPEC §24).
public struct ReconnectBackoff: Sendable, Hashable {
    /// The first wait.
    public static let first = Duration.seconds(1)
    /// The longest wait.
    public static let longest = Duration.seconds(60)

    /// The wait after the next failure.
    public private(set) var next = Self.first

    /// A backoff at its first wait.
    public init() {}

    /// The wait after one more failure; the one after it is doubled.
    public mutating func failed() -> Duration {
        let wait = next
        next = min(next * 2, Self.longest)
        return wait
    }

    /// A connection was accepted: the next failure waits the first wait again.
    public mutating func succeeded() { next = Self.first }
}
