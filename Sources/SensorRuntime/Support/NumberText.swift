/// The one way a number or a duration becomes text for people and for the journal: integers
/// without `.0`, a person's value at most three decimals, durations in the units a
/// configuration writes them in. JSON, the journal's fields, the status file, the metrics and
/// every CLI column use it, so one value prints the same everywhere.
public enum NumberText {
    /// A value for a person to read: at most three decimals (sysfs resolution is milli-units),
    /// so simulated noise prints `86.119`, not `86.11947304015845`. Machine fields keep
    /// full precision (``number(_:)``).
    public static func display(_ v: Double) -> String {
        guard v.isFinite else { return number(v) }
        return number((v * 1000).rounded() / 1000)
    }

    /// A number as people write it: `80`, `81.5`, `-0.25` (integers without `.0`).
    public static func number(_ v: Double) -> String {
        if v.isNaN || v.isInfinite { return "null" }
        if v == v.rounded(), abs(v) < 1e15 {
            return String(Int64(v))
        }
        return String(v)
    }

    /// A duration in seconds as `250ms`, `30s`, `5m`, `1h30m`, `1.5s`.
    public static func duration(seconds: Double) -> String {
        if seconds < 1, seconds > 0 { return number((seconds * 1000 * 1000).rounded() / 1000) + "ms" }
        if seconds != seconds.rounded() { return number(seconds) + "s" }
        var rest = Int64(seconds)
        var out = ""
        if rest >= 3600 { out += "\(rest / 3600)h"; rest %= 3600 }
        if rest >= 60 { out += "\(rest / 60)m"; rest %= 60 }
        if rest > 0 || out.isEmpty { out += "\(rest)s" }
        return out
    }
}
