#if canImport(Glibc)
import Glibc
#endif

/// Parses `history --since`: a local date and time, a duration ago, or a day name.
///
/// Accepted: `2026-11-29 10:00:00`, `2026-11-29 10:00`, `2026-11-29` (local time);
/// `-1h`, `1h`, `90m`, `1h30m`, `2d`, `1w` (that long before now; units s, m, h, d, w);
/// `today`, `yesterday` (local midnight); `now`; `@1764410400` (seconds since the epoch).
enum HistorySince {
    /// Seconds since the epoch, or nil when `text` is none of the accepted forms.
    static func parse(_ text: String, now: Double) -> Double? {
        let t = text.trimmingSpaces()
        switch t {
        case "now": return now
        case "today": return midnight(now, daysBack: 0)
        case "yesterday": return midnight(now, daysBack: 1)
        default: break
        }
        if t.hasPrefix("@") { return Double(t.dropFirst()) }
        if let ago = duration(t.hasPrefix("-") ? String(t.dropFirst()) : t) { return now - ago }
        return localDateTime(t)
    }

    /// `1h30m` → 5400; nil if not a duration.
    static func duration(_ s: String) -> Double? {
        var total = 0.0
        var digits = ""
        var sawUnit = false
        for c in s {
            if c.isNumber || c == "." {
                digits.append(c)
                continue
            }
            let unit: Double
            switch c {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86400
            case "w": unit = 7 * 86400
            default: return nil
            }
            guard let n = Double(digits) else { return nil }
            total += n * unit
            digits = ""
            sawUnit = true
        }
        return sawUnit && digits.isEmpty ? total : nil
    }

    private static func localDateTime(_ s: String) -> Double? {
        let parts = s.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int32($0) }
        guard date.count == 3, let y = date[0], let mo = date[1], let d = date[2],
            (1...12).contains(mo), (1...31).contains(d)
        else { return nil }
        var clock: [Int32] = [0, 0, 0]
        if parts.count == 2 {
            let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int32($0) }
            guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ $0 != nil }) else { return nil }
            for (i, f) in fields.enumerated() { clock[i] = f! }
            guard (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else {
                return nil
            }
        }
        var tm = tm()
        tm.tm_year = y - 1900
        tm.tm_mon = mo - 1
        tm.tm_mday = d
        tm.tm_hour = clock[0]
        tm.tm_min = clock[1]
        tm.tm_sec = clock[2]
        tm.tm_isdst = -1
        let t = mktime(&tm)
        return t == -1 ? nil : Double(t)
    }

    private static func midnight(_ now: Double, daysBack: Int32) -> Double {
        var t = time_t(now.rounded(.down))
        var tm = tm()
        localtime_r(&t, &tm)
        tm.tm_hour = 0
        tm.tm_min = 0
        tm.tm_sec = 0
        tm.tm_mday -= daysBack
        tm.tm_isdst = -1
        return Double(mktime(&tm))
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
