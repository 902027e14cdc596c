/// A point in a run's time: whole nanoseconds since the run (or scenario) started.
///
/// Integer nanoseconds make boundary comparisons exact: a sample at exactly `t - W` or a
/// `for` that ends exactly on a sample compares equal, which floating-point seconds
/// (`0.1 * 3 != 0.3`) would not guarantee.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the start of the run.
    public var nanoseconds: Int64

    /// The time `nanoseconds` after the start of the run.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The start of a run.
    public static let zero = Timestamp(nanoseconds: 0)

    /// Rounds a number of seconds to the nearest nanosecond.
    public static func seconds(_ seconds: Double) -> Timestamp {
        Timestamp(nanoseconds: Int64((seconds * 1e9).rounded()))
    }

    /// Seconds since the start, as printed in events (`12.0`, `0.1`).
    public var seconds: Double {
        // Split so that values like 0.3 s print as 0.3, not 0.30000000000000004.
        let whole = nanoseconds / 1_000_000_000
        let frac = nanoseconds % 1_000_000_000
        return Double(whole) + Double(frac) / 1e9
    }

    /// Seconds since the start of the run, with an `s` (`1.5s`), for logs and tests.
    public var description: String { "\(seconds)s" }

    /// Earlier times order first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The time `rhs` later; wraps rather than traps on overflow.
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    /// The time `rhs` earlier; wraps rather than traps on overflow.
    public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }
}

extension Duration {
    /// This duration in whole nanoseconds (sub-nanosecond parts are dropped).
    public var nanoseconds: Int64 {
        let (s, atto) = components
        return s &* 1_000_000_000 &+ atto / 1_000_000_000
    }

    /// This duration in seconds, as printed in events (`threshold` of a stale rule).
    public var seconds: Double { Timestamp(nanoseconds: nanoseconds).seconds }
}
