/// Where the time of day (``WallTime``) is read: the one way it is given to what needs it.
///
/// Only what people and peers read is on it: journal and status times, silences, kept
/// alerts' `since`, Alertmanager's `startsAt`/`endsAt`. Sampling and every wait are on the
/// run's clock (``RunClock``), which a clock step does not move. The daemon and its commands
/// read ``SystemWallClock``; tests give a ``ManualWallClock``.
public protocol WallClock: Sendable {
    /// The time of day now.
    var now: WallTime { get }
}
