import SensorCore

/// How an event shows on a panel: a filled triangle pointing up for `firing`, a hollow
/// circle for `resolved`, a small filled diamond for `repeat`, in the rule's colour and with
/// the event's line as its tooltip.
enum EventMarker {
    /// Draws the marker of `kind` centred on (x, y).
    static func draw(
        _ kind: EventKind, x: Double, y: Double, color: String, size: Double = 5, tooltip: String? = nil,
        into svg: inout SVGWriter
    ) {
        let c = SVGWriter.coordinate
        switch kind {
        case .firing:
            let d =
                "M\(c(x)),\(c(y - size * 1.2))L\(c(x + size)),\(c(y + size * 0.7))L\(c(x - size)),\(c(y + size * 0.7))Z"
            emit("path", ["d": d, "fill": color, "stroke": "white", "stroke-width": "1"], tooltip, &svg)
        case .resolved:
            emit(
                "circle",
                ["cx": c(x), "cy": c(y), "r": c(size * 0.8), "fill": "white", "stroke": color, "stroke-width": "2"],
                tooltip, &svg)
        case .repeat:
            let s = size
            let d = "M\(c(x)),\(c(y - s))L\(c(x + s)),\(c(y))L\(c(x)),\(c(y + s))L\(c(x - s)),\(c(y))Z"
            emit("path", ["d": d, "fill": color, "stroke": "white", "stroke-width": "1"], tooltip, &svg)
        }
    }

    private static func emit(
        _ name: String, _ attributes: KeyValuePairs<String, String>, _ tooltip: String?, _ svg: inout SVGWriter
    ) {
        if let tooltip { svg.element(name, attributes, tooltip: tooltip) } else { svg.element(name, attributes) }
    }
}
