/// What the environment says about the terminal a view draws on: its type, whether colour
/// is wanted, whether it takes UTF-8.
public struct TerminalEnvironment: Sendable, Hashable {
    /// `$TERM`.
    public var term: String?
    /// Whether colour is wanted: not with `NO_COLOR` set non-empty (no-color.org), not on a
    /// dumb terminal.
    public var colour: Bool
    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`,
    /// as setlocale(3) takes them; unset or `C`/`POSIX` is ASCII).
    public var utf8: Bool

    /// What the variables `lookup` gives say.
    public init(_ lookup: (String) -> String?) {
        func set(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        term = set("TERM")
        colour = set("NO_COLOR") == nil && term != "dumb"
        let locale = set("LC_ALL") ?? set("LC_CTYPE") ?? set("LANG") ?? ""
        // The codeset is what follows the dot, up to a modifier: `en_US.UTF-8@euro`. (No
        // String.contains(String): it links the regex engine, 1.3 MB of the binary.)
        let codeset = locale.split(separator: ".", maxSplits: 1).dropFirst().first?.split(separator: "@").first
        utf8 = codeset.map { ["utf-8", "utf8"].contains($0.lowercased()) } ?? false
    }

    /// Why a full-screen view cannot be drawn on a terminal of `size`, or nil when it can:
    /// `TERM=dumb` (no cursor movement) or smaller than `minimum`.
    public func unusable(size: TerminalSize?, minimum: TerminalSize) -> String? {
        if term == nil || term == "dumb" {
            return
                "the terminal cannot move its cursor (TERM=\(term ?? "")); use `sensorwatch watch` or `sensorwatch status`"
        }
        guard let size else { return "the terminal's size cannot be told" }
        if !size.holds(minimum) {
            return "the terminal is \(size), it needs at least \(minimum); make it larger, or use `sensorwatch watch`"
        }
        return nil
    }
}
