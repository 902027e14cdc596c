/// The plot's colours: one blue for measured values, and for rules a qualitative palette
/// without blue (so a rule's line is never mistaken for data), assigned in legend order.
enum PlotPalette {
    /// The measured values' line.
    static let value = "#1f5fbf"
    /// Failed reads.
    static let failed = "#b00020"
    /// Grid lines, frame, secondary text.
    static let grid = "#e4e4e4", frame = "#b8b8b8", muted = "#666666", text = "#222222"

    private static let rules = [
        "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#6b3d00",
    ]

    /// The colour of the rule at `index` in the legend (cycling after ten).
    static func rule(_ index: Int) -> String { rules[index % rules.count] }
}
