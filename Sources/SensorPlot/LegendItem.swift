import SensorCore

/// One entry of the plot's legend: a symbol as drawn in the panels, and its text.
enum LegendItem: Equatable, Sendable {
    /// The measured values' line.
    case value
    /// Failed reads: the mark on the time axis and the shaded gap.
    case failed
    /// A threshold line with its hysteresis band.
    case threshold
    /// The shading while an alert fires.
    case firing
    /// An event marker.
    case event(EventKind)
    /// A predict rule's predicted value.
    case predicted
    /// A rule, in its colour, with its summary.
    case rule(name: String, summary: String, color: String)

    /// The text after the symbol.
    var text: String {
        switch self {
        case .value: return "value"
        case .failed: return "failed reads"
        case .threshold: return "threshold, hysteresis band"
        case .firing: return "alert firing"
        case .event(let kind): return "\(kind.rawValue) event"
        case .predicted: return "predicted (predict rules)"
        case .rule(let name, let summary, _): return "\(name): \(summary)"
        }
    }

    /// Width of the symbol before the text.
    static let symbolWidth = 24.0

    /// Draws the symbol in the box from `x` (width ``symbolWidth``) centred on `y`.
    func drawSymbol(x: Double, y: Double, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        let grey = PlotPalette.muted
        switch self {
        case .value:
            svg.element(
                "line",
                [
                    "x1": c(x), "x2": c(x + 22), "y1": c(y), "y2": c(y), "stroke": PlotPalette.value,
                    "stroke-width": "1.6",
                ])
        case .failed:
            svg.element(
                "rect",
                ["x": c(x), "y": c(y - 6), "width": "22", "height": "12", "fill": "#000", "fill-opacity": "0.07"])
            svg.element(
                "rect", ["x": c(x + 4), "y": c(y + 3), "width": "14", "height": "3", "fill": PlotPalette.failed])
        case .threshold:
            svg.element(
                "rect", ["x": c(x), "y": c(y), "width": "22", "height": "5", "fill": grey, "fill-opacity": "0.2"])
            svg.element(
                "line",
                [
                    "x1": c(x), "x2": c(x + 22), "y1": c(y), "y2": c(y), "stroke": grey, "stroke-width": "1.4",
                    "stroke-dasharray": "5 3",
                ])
        case .firing:
            svg.element(
                "rect", ["x": c(x), "y": c(y - 6), "width": "22", "height": "12", "fill": grey, "fill-opacity": "0.15"])
            svg.element("rect", ["x": c(x), "y": c(y - 6), "width": "22", "height": "3", "fill": grey])
        case .event(let kind):
            EventMarker.draw(kind, x: x + 11, y: y, color: grey, into: &svg)
        case .predicted:
            svg.element(
                "line",
                [
                    "x1": c(x), "x2": c(x + 22), "y1": c(y), "y2": c(y), "stroke": grey, "stroke-width": "1.6",
                    "stroke-dasharray": "2 2",
                ])
        case .rule(_, _, let color):
            svg.element(
                "rect", ["x": c(x + 4), "y": c(y - 6), "width": "14", "height": "12", "fill": color, "rx": "2"])
        }
    }
}
