/// Turns each frame's ``ScreenGrid`` into the bytes that bring the terminal from the last
/// frame to it: only the cells that differ are written, with a cursor move before a run of
/// them and a style change only where the style changes.
///
/// A full repaint (clear, then every row) happens at the first frame, when the size changes,
/// and when the caller asks (Ctrl-L); otherwise a frame where nothing changed costs nothing,
/// and a changed value costs its cells and a cursor move. The caller writes the bytes with
/// one `write(2)` (``Terminal/write(_:)``).
public struct ScreenRenderer: Sendable {
    private let colour: Bool
    private var previous: ScreenGrid?
    /// The style the terminal draws with now, as the last frame left it.
    private var current = CellStyle.plain

    /// How many full repaints it has made: the first frame's, resizes', the caller's.
    public private(set) var repaints = 0

    /// A renderer; without `colour` (`NO_COLOR`), styles keep their attributes only.
    public init(colour: Bool) {
        self.colour = colour
    }

    /// The bytes that draw `grid`; a full repaint when `repaint`, at the first frame or
    /// after a change of size. Empty when nothing differs.
    public mutating func frame(_ grid: ScreenGrid, repaint: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        let old: ScreenGrid
        if let p = previous, !repaint, p.size == grid.size {
            old = p
        } else {
            // After a clear every cell is a blank: only the others need drawing.
            repaints += 1
            current = .plain
            out += Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
            old = ScreenGrid(size: grid.size)
        }
        var cursor: (row: Int, column: Int)? = out.isEmpty ? nil : (0, 0)
        let columns = grid.size.columns
        for row in 0..<grid.size.rows {
            var col = 0
            while col < columns {
                let cell = grid[row, col]
                if cell == old[row, col] {
                    col += 1
                    continue
                }
                // A changed second half is drawn by drawing its character.
                var at = col
                if cell.isContinuation, at > 0 { at -= 1 }
                let lead = grid[row, at]
                if lead.isContinuation {  // an orphan half: nothing to draw there
                    col += 1
                    continue
                }
                if cursor.map({ $0 != (row, at) }) ?? true {
                    out += Array("\u{1B}[\(row + 1);\(at + 1)H".utf8)
                }
                if lead.style != current {
                    out += lead.style.sgr(colour: colour)
                    current = lead.style
                }
                out += Array(lead.text.utf8)
                let width = at + 1 < columns && grid[row, at + 1].isContinuation ? 2 : 1
                col = at + width
                // At the right edge the cursor's place depends on the terminal: move next time.
                cursor = col < columns ? (row, col) : nil
            }
        }
        previous = grid
        return out
    }
}
