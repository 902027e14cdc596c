/// The legend above the panels: what each symbol means, then one entry per rule in its
/// colour. Entries flow left to right and wrap at the document's width.
struct PlotLegend {
    /// The entries with their positions.
    let placed: [PlacedLegendItem]
    /// Line height and font size.
    let rowHeight: Double, fontSize: Double

    /// Lays out the key entries on the first rows and each rule after them, within `width`.
    init(keys: [LegendItem], rules: [LegendItem], width: Double, fontSize: Double) {
        self.fontSize = fontSize
        rowHeight = fontSize + 8
        var placed: [PlacedLegendItem] = []
        var row = 0, x = 0.0
        for (n, group) in [keys, rules].enumerated() {
            if n > 0, !placed.isEmpty, x > 0 {
                row += 1
                x = 0
            }
            for item in group {
                let w = LegendItem.symbolWidth + 4 + TextMetrics.width(item.text, fontSize: fontSize) + 18
                if x > 0, x + w > width {
                    row += 1
                    x = 0
                }
                placed.append(PlacedLegendItem(item: item, x: x, row: row))
                x += w
            }
        }
        self.placed = placed
    }

    /// The legend's height (0 without entries).
    var height: Double { placed.isEmpty ? 0 : Double((placed.map(\.row).max() ?? 0) + 1) * rowHeight }

    /// Draws the legend with its top left at (x, y).
    func render(x: Double, y: Double, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        for p in placed {
            let mid = y + Double(p.row) * rowHeight + rowHeight / 2
            p.item.drawSymbol(x: x + p.x, y: mid, into: &svg)
            svg.element(
                "text", ["x": c(x + p.x + LegendItem.symbolWidth + 4), "y": c(mid + fontSize * 0.35)], text: p.item.text
            )
        }
    }
}
