/// A row of values as a sparkline, one cell a value, from the lowest to the highest of a
/// range: `▁▂▃▄▅▆▇█`, or `_.-~=+*#` where the terminal's locale is not UTF-8 (a block
/// element in a Latin-1 terminal is three cells of garbage).
public enum Sparkline {
    /// The eight levels in Unicode.
    public static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// The eight levels in ASCII.
    public static let ascii: [Character] = ["_", ".", "-", "~", "=", "+", "*", "#"]

    /// One character per value: nil (no sample in that slot) is a space; a value is placed
    /// between `low` and `high` (the lowest level when they are equal).
    public static func line(_ values: [Double?], low: Double, high: Double, utf8: Bool) -> String {
        let levels = utf8 ? blocks : ascii
        var out = ""
        for value in values {
            guard let value, value.isFinite else {
                out.append(" ")
                continue
            }
            let span = high - low
            var level = span > 0 ? Int(((value - low) / span * Double(levels.count - 1)).rounded()) : 0
            level = min(levels.count - 1, max(0, level))
            out.append(levels[level])
        }
        return out
    }
}
