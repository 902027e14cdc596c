#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 time stamps in UTC, as notification targets receive them (SPEC §17).
public enum NotifyTime {
    /// `2026-12-01T22:32:10.123456Z` for microseconds since the Unix epoch; the fraction is
    /// left out when it is zero.
    public static func rfc3339(microseconds: UInt64) -> String {
        var t = time_t(microseconds / 1_000_000)
        var tm = tm()
        gmtime_r(&t, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))"
        s += "T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec))"
        let fraction = microseconds % 1_000_000
        if fraction != 0 {
            let digits = String(fraction)
            s += "." + String(repeating: "0", count: 6 - digits.count) + digits
        }
        return s + "Z"
    }

    /// The wall clock now, microseconds since the Unix epoch.
    public static func nowMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
