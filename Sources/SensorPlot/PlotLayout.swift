/// Where the panels go: one column of tall panels for a few sensors, and a compact grid
/// (two or three columns of lower panels, smaller type) when there are many, so that 50
/// sensors still fit a page a person can scroll and read. Panels are ordered row by row.
struct PlotLayout: Equatable, Sendable {
    /// How many panels.
    let count: Int
    /// Panels side by side.
    let columns: Int
    /// Width of the whole document, in pixels.
    let width: Double
    /// Height of one panel's data area.
    let plotHeight: Double
    /// Base font size; titles and ticks derive from it.
    let fontSize: Double
    /// Where the first row of panels starts (below the title and the legend).
    let top: Double

    /// Room left of a data area for the value labels, and right of it.
    let insetLeft = 58.0, insetRight = 14.0
    /// Room above a data area for the panel title, below it for the time labels.
    let titleHeight: Double, timeLabelHeight: Double
    /// Space between rows and between columns.
    let rowGap = 14.0, columnGap = 28.0
    /// Room below the last row.
    let bottomMargin = 10.0

    /// A layout for `count` panels below a header `top` pixels high.
    init(count: Int, top: Double) {
        self.count = count
        self.top = top
        switch count {
        case ...3: (columns, width, plotHeight, fontSize) = (1, 960, 180, 11)
        case ...6: (columns, width, plotHeight, fontSize) = (1, 960, 140, 11)
        case ...18: (columns, width, plotHeight, fontSize) = (2, 1400, 110, 10)
        default: (columns, width, plotHeight, fontSize) = (3, 1800, 90, 10)
        }
        titleHeight = fontSize + 9
        timeLabelHeight = fontSize + 6
    }

    /// The compact form (several columns, smaller type).
    var isCompact: Bool { columns > 1 }

    /// Rows of panels.
    var rows: Int { (count + columns - 1) / columns }

    /// The height of one panel with its title and time labels.
    var panelHeight: Double { titleHeight + plotHeight + timeLabelHeight }

    /// The width of one panel, value labels included.
    var panelWidth: Double {
        (width - 2 * Self.margin - Double(columns - 1) * columnGap) / Double(columns)
    }

    /// The height of the whole document.
    var height: Double {
        top + Double(rows) * panelHeight + Double(max(0, rows - 1)) * rowGap + bottomMargin
    }

    /// The document's left and right margin.
    static let margin = 12.0

    /// The data area of panel `index` (row by row).
    func frame(_ index: Int) -> PlotFrame {
        let row = index / columns, column = index % columns
        let left = Self.margin + Double(column) * (panelWidth + columnGap)
        let y = top + Double(row) * (panelHeight + rowGap) + titleHeight
        return PlotFrame(x: left + insetLeft, y: y, width: panelWidth - insetLeft - insetRight, height: plotHeight)
    }
}
