#if canImport(Glibc)
import Glibc
#endif

/// The one way a time of day becomes text: strftime(3) of whole Unix seconds, in UTC or in
/// the local time zone. RFC 3339 (``RFC3339``), the set-aside files' stamps, the terminal's
/// clock and `history`'s columns are all patterns of it.
public enum TimeText {
    /// `seconds` (rounded down to the second) as `pattern` says (`%Y%m%dT%H%M%SZ`).
    public static func format(_ seconds: Double, _ pattern: String, local: Bool = false) -> String {
        var t = time_t(seconds.rounded(.down))
        var tm = tm()
        if local { localtime_r(&t, &tm) } else { gmtime_r(&t, &tm) }
        var buf = [CChar](repeating: 0, count: 64)
        let n = strftime(&buf, buf.count, pattern, &tm)
        return String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
