/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Lines, top to bottom.
    public var rows: Int
    /// Cells in a line.
    public var columns: Int

    /// A size of `rows` lines of `columns` cells.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// `COLUMNS×ROWS`, as a person says it.
    public var description: String { "\(columns)×\(rows)" }

    /// Whether it is at least `other` in both directions.
    public func holds(_ other: TerminalSize) -> Bool { rows >= other.rows && columns >= other.columns }
}
