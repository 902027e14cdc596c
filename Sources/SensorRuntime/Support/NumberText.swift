/// The one way a number or a duration becomes text for people and for the journal: integers
/// without `.0`, a person's value at most three decimals, durations in the units a
/// configuration writes them in. JSON, the journal's fields, the status file, the metrics and
/// every CLI column use it, so one value prints the same everywhere.
public enum NumberText {
    /// A value for a person to read: at most three decimals (sysfs resolution is milli-units),
    /// so simulated noise prints `86.119`, not `86.11947304015845`. Machine fields keep
    /// full precision (``number(_:)``).
    public static func display(_ v: Double) -> String { decimals(v, places: 3) }

    /// `v` rounded to at most `places` decimals and written as ``number(_:)`` writes it
    /// (`decimals(12.04, places: 1)` is `12`): a plot's coordinates, a column's digits.
    public static func decimals(_ v: Double, places: Int) -> String {
        number(rounded(v, places: places))
    }

    /// `v` rounded to `places` decimals (half away from zero), as a `Double`; not finite
    /// stays as it is.
    public static func rounded(_ v: Double, places: Int) -> Double {
        guard v.isFinite else { return v }
        var scale = 1.0
        for _ in 0..<max(0, places) { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    /// A number that keeps its decimal point when whole (`12.0`, `0.25`), as Swift writes a
    /// `Double`: the form SPEC §6 shows an event's `time` in, and JUnit's `time` attribute has.
    public static func pointed(_ v: Double) -> String { String(v) }

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
        if seconds < 1, seconds > 0 { return decimals(seconds * 1000, places: 3) + "ms" }
        // Whole seconds in hours, minutes and seconds as a configuration writes them, which
        // is what DurationParser writes; a fraction of a second is kept in seconds (`90.5s`).
        guard seconds == seconds.rounded(), seconds >= 0, seconds < 9e9 else { return number(seconds) + "s" }
        return DurationParser.format(.seconds(Int64(seconds)))
    }
}
