/// A legend entry and where it goes, relative to the legend's top left: an x offset and a
/// row.
struct PlacedLegendItem: Sendable {
    var item: LegendItem
    var x: Double, row: Int
}
