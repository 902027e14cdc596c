/// How a cell is drawn: a colour and the attributes a view needs, nothing more.
public struct CellStyle: Sendable, Hashable {
    /// A foreground colour of the eight every terminal has.
    public enum Colour: UInt8, Sendable, Hashable {
        /// Each with its SGR foreground code.
        case red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36
    }

    /// The foreground colour; nil is the terminal's own.
    public var colour: Colour?
    /// Bold (bright on some terminals).
    public var bold: Bool
    /// Foreground and background swapped: the selected row, the header bar.
    public var reverse: Bool
    /// Faint: what matters less, such as a group's heading rule.
    public var dim: Bool

    /// A style; the default is the terminal's own.
    public init(colour: Colour? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false) {
        self.colour = colour
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
    }

    /// The terminal's own style.
    public static let plain = CellStyle()

    /// The SGR sequence that sets this style from any other: a reset, then its parts;
    /// without `colour`, the colour is left out (`NO_COLOR`) and the attributes kept.
    func sgr(colour withColour: Bool) -> [UInt8] {
        var s = "\u{1B}[0"
        if bold { s += ";1" }
        if dim { s += ";2" }
        if reverse { s += ";7" }
        if withColour, let colour { s += ";\(colour.rawValue)" }
        return Array((s + "m").utf8)
    }
}
