/// One cell of the screen: the character drawn in it and its style.
///
/// A character two cells wide sits in its first cell; the second holds ``continuation``
/// (empty text), which the renderer never writes on its own.
public struct ScreenCell: Sendable, Hashable {
    /// What is drawn: one character with its combining marks, or empty for the second half
    /// of a wide one.
    public var text: String
    /// How.
    public var style: CellStyle

    /// A cell showing `text` in `style`.
    public init(_ text: String, style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// An empty cell: a space, unstyled.
    public static let blank = ScreenCell(" ")

    /// Whether this is the second half of a wide character.
    public var isContinuation: Bool { text.isEmpty }
}
