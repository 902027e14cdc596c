#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 times in UTC with milliseconds (`2026-12-01T22:01:06.250Z`), as the status
/// file holds them (SPEC §19), and back.
public enum RFC3339 {
    /// Unix seconds as RFC 3339 UTC with milliseconds: `2026-12-01T22:01:06.250Z`, as the
    /// status file and `status`/`history` show them.
    public static func format(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded(.down))
        let whole = millis / 1000 - (millis % 1000 < 0 ? 1 : 0)
        return dateAndTime(whole) + "." + padded(((millis % 1000) + 1000) % 1000, 3) + "Z"
    }

    /// Microseconds since the Unix epoch as RFC 3339 UTC, as notification targets and the
    /// journal's silence fields receive them (SPEC §17, §21): `2026-12-01T22:32:10.123456Z`,
    /// the fraction left out when it is zero unless `wholeFraction` (`history --json`'s
    /// times always have six digits: `…T10:00:01.000000Z`).
    public static func format(microseconds: UInt64, wholeFraction: Bool = false) -> String {
        let fraction = Int64(microseconds % 1_000_000)
        let shown = fraction != 0 || wholeFraction
        return dateAndTime(Int64(microseconds / 1_000_000)) + (shown ? "." + padded(fraction, 6) : "") + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS` of whole Unix seconds.
    private static func dateAndTime(_ seconds: Int64) -> String {
        TimeText.format(Double(seconds), "%Y-%m-%dT%H:%M:%S")
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Unix seconds of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let u = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= u.count else { return nil }
            var v = 0
            for c in u[at..<(at + count)] {
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard u.count >= 20, let year = digits(0, 4), u[4] == 45, let month = digits(5, 2), u[7] == 45,
            let day = digits(8, 2), u[10] == 84 || u[10] == 116 || u[10] == 32, let hour = digits(11, 2), u[13] == 58,
            let minute = digits(14, 2), u[16] == 58, let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 {
                fraction += Double(u[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if i < u.count, u[i] == 90 || u[i] == 122 {
            i += 1
        } else if i + 6 == u.count, u[i] == 43 || u[i] == 45, let h = digits(i + 1, 2), u[i + 3] == 58,
            let m = digits(i + 4, 2)
        {
            offset = (h * 3600 + m * 60) * (u[i] == 45 ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == u.count else { return nil }
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        return Double(timegm(&tm) - offset) + fraction
    }
}
