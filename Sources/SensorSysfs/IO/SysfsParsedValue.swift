/// What ``SysfsValueParser/parse(_:)`` found in an attribute's text.
public enum SysfsParsedValue: Hashable, Sendable {
    /// A decimal number, exact to the nearest `Double`.
    case number(Double)
    /// Nothing but whitespace (or no bytes at all).
    case empty
    /// Text that is not one decimal number.
    case invalid
}
