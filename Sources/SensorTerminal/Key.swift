/// A key a person pressed, as ``KeyDecoder`` reads it from the terminal's bytes.
public enum Key: Sendable, Hashable {
    /// An arrow key.
    case up, down, left, right
    /// A key that moves by a page, or to the first or last row.
    case pageUp, pageDown, home, end
    /// Enter (CR or LF), Backspace (DEL or BS), Tab, Escape alone.
    case enter, backspace, tab, escape
    /// A control key: `ctrl("c")` is Ctrl-C, `ctrl("l")` Ctrl-L.
    case ctrl(Character)
    /// A printable character (a letter, `/`, `?`, a digit).
    case character(Character)
    /// A sequence this view has no use for (a function key), read whole and dropped.
    case unknown
}
