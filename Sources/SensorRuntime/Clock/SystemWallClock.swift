import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The system's time of day (`CLOCK_REALTIME`): the ``WallClock`` that ships.
public struct SystemWallClock: WallClock {
    /// The system's clock.
    public init() {}

    /// `CLOCK_REALTIME` now, to the microsecond.
    public var now: WallTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return WallTime(microseconds: UInt64(max(0, ts.tv_sec)) * 1_000_000 + UInt64(max(0, ts.tv_nsec)) / 1000)
    }
}
