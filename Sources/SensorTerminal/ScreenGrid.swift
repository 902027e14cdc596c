import SensorRuntime

/// The screen as a grid of cells, which a view fills each frame and ``ScreenRenderer``
/// compares with the last one drawn.
///
/// Text goes in escaped (``DisplayText``: a label from sysfs holding `ESC[2J` shows as
/// `\x1b[2J`, it never reaches the terminal as a control) and measured in cells
/// (``DisplayWidth``): a wide character takes two cells, a combining mark joins the cell
/// before it, and what does not fit is cut at the edge, never wrapped.
public struct ScreenGrid: Sendable, Hashable {
    /// The grid's size.
    public let size: TerminalSize
    /// Row-major cells, `size.rows * size.columns` of them.
    public private(set) var cells: [ScreenCell]

    /// A blank grid of `size`.
    public init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: .blank, count: max(0, size.rows) * max(0, size.columns))
    }

    /// The cell at `row`, `column` (both from 0).
    public subscript(row: Int, column: Int) -> ScreenCell {
        cells[row * size.columns + column]
    }

    /// Writes `text` from `row`, `column`, at most `width` cells (to the right edge when
    /// nil); returns the column after the last cell written. A wide character that would
    /// straddle the limit is left out (a space in its place).
    @discardableResult
    public mutating func put(
        _ text: String, row: Int, column: Int, width: Int? = nil, style: CellStyle = .plain
    ) -> Int {
        guard row >= 0, row < size.rows, column >= 0 else { return column }
        let end = min(size.columns, width.map { column + max(0, $0) } ?? size.columns)
        var col = column
        let base = row * size.columns
        for scalar in DisplayText.escaped(text).unicodeScalars {
            let w = DisplayWidth.cells(scalar)
            if w == 0 {
                // A combining mark belongs to the character before it.
                if col > column, !cells[base + col - 1].isContinuation {
                    cells[base + col - 1].text.unicodeScalars.append(scalar)
                }
                continue
            }
            if col + w > end {
                if col < end { cells[base + col] = ScreenCell(" ", style: style) }
                col = end
                break
            }
            unpair(base, col, width: w)
            cells[base + col] = ScreenCell(String(scalar), style: style)
            if w == 2 { cells[base + col + 1] = ScreenCell("", style: style) }
            col += w
        }
        return col
    }

    /// Before `width` cells from `col` of the row at `base` are written: the other half of a
    /// wide character they cut in two becomes a space, so no half is left to draw.
    private mutating func unpair(_ base: Int, _ col: Int, width: Int) {
        if cells[base + col].isContinuation, col > 0 { cells[base + col - 1] = .blank }
        let last = col + width - 1
        if last + 1 < size.columns, cells[base + last + 1].isContinuation { cells[base + last + 1] = .blank }
    }

    /// Fills `width` cells from `row`, `column` with spaces in `style`.
    public mutating func fill(row: Int, column: Int, width: Int, style: CellStyle = .plain) {
        guard row >= 0, row < size.rows else { return }
        let end = min(size.columns, column + width)
        var col = max(0, column)
        while col < end {
            unpair(row * size.columns, col, width: 1)
            cells[row * size.columns + col] = ScreenCell(" ", style: style)
            col += 1
        }
    }

    /// The text of `row`, for tests and captures (the second half of a wide character
    /// left out, trailing spaces kept).
    public func line(_ row: Int) -> String {
        var s = ""
        for c in 0..<size.columns { s += self[row, c].text }
        return s
    }
}
