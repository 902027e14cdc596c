import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The time of day (`CLOCK_REALTIME`), the one place the daemon and its commands read it.
///
/// Only what people and peers read is on it: journal and status times, silences, kept
/// alerts' `since`, Alertmanager's `startsAt`/`endsAt`. Sampling and every wait are on the
/// boot clock (``BootClock``), which a clock step does not move.
public enum WallClock {
    /// Seconds since the Unix epoch.
    public static func seconds() -> Double {
        let ts = now()
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Microseconds since the Unix epoch, as silences and notification targets keep time.
    public static func microseconds() -> UInt64 {
        let ts = now()
        return UInt64(max(0, ts.tv_sec)) * 1_000_000 + UInt64(max(0, ts.tv_nsec)) / 1000
    }

    private static func now() -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return ts
    }
}
