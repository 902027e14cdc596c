/// A time of day: whole microseconds since the Unix epoch, the one unit the daemon and its
/// commands keep it in.
///
/// Microseconds, because silences, notification targets and the journal hold time of day
/// that finely and compare it exactly; ``seconds`` is for the places that print or store
/// Unix seconds (the status file, kept alerts' `since`, the live stream). Read it from a
/// ``WallClock``; never from a run's clock (``RunClock``), which a clock step does not move.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the Unix epoch.
    public var microseconds: UInt64

    /// The time `microseconds` after the epoch.
    public init(microseconds: UInt64) { self.microseconds = microseconds }

    /// Unix seconds rounded to the nearest microsecond; a time before the epoch is the epoch
    /// (no time of day the daemon meets is earlier).
    public init(seconds: Double) {
        microseconds = seconds > 0 ? UInt64((seconds * 1e6).rounded()) : 0
    }

    /// The Unix epoch.
    public static let epoch = WallTime(microseconds: 0)

    /// Unix seconds, as the status file, kept alerts and the live stream hold them.
    public var seconds: Double {
        // Split so that whole and fractional seconds convert exactly before they are added.
        Double(microseconds / 1_000_000) + Double(microseconds % 1_000_000) / 1e6
    }

    /// RFC 3339 UTC to the microsecond, the fraction left out when it is zero — the text
    /// notification targets and the journal's silence fields receive
    /// (``RFC3339/format(microseconds:)``).
    public var description: String { RFC3339.format(microseconds: microseconds) }

    /// Earlier times order first.
    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// The time `d` later (whole microseconds; a time before the epoch is the epoch).
    public func advanced(by d: Duration) -> WallTime {
        let micros = d.components.seconds * 1_000_000 + d.components.attoseconds / 1_000_000_000_000
        guard micros < 0 else { return WallTime(microseconds: microseconds &+ UInt64(micros)) }
        return WallTime(microseconds: microseconds - min(microseconds, UInt64(-micros)))
    }
}
