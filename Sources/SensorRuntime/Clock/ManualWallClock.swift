import Synchronization

/// A time of day that moves only when a test sets or advances it: the ``WallClock`` of
/// tests, so the times they check in texts are fixed.
public final class ManualWallClock: WallClock {
    private let time: Mutex<WallTime>

    /// A clock standing at `time`.
    public init(_ time: WallTime) { self.time = Mutex(time) }

    /// The time it stands at.
    public var now: WallTime { time.withLock { $0 } }

    /// Moves it to `time` (back or forth).
    public func set(_ time: WallTime) { self.time.withLock { $0 = time } }

    /// Moves it `d` on.
    public func advance(by d: Duration) { time.withLock { $0 = $0.advanced(by: d) } }
}
