import SensorCore

/// Draws a simulation as SVG: one panel per sensor with its values, the thresholds of the
/// rules that select it, and a marker at every event (red firing, green resolved, orange
/// repeat). For tuning rules by eye; no dependencies, a plain text file.
@MainActor
final class SVGPlot {
    private var sensors: [SensorInfo] = []
    private var series: [SensorID: [(Double, Double?)]] = [:]

    /// Records the samples of a cycle.
    func add(_ cycle: PollCycle) {
        for info in cycle.sensors where series[info.id] == nil {
            sensors.append(info)
            series[info.id] = []
        }
        for sample in cycle.samples {
            series[sample.sensor, default: []].append((sample.time.seconds, sample.value))
        }
    }

    /// The SVG document.
    func render(rules: [Rule], events: [AlertEvent]) -> String {
        let width = 900.0, panel = 180.0, left = 60.0, right = 20.0, top = 30.0, gap = 40.0
        let ordered = sensors.sorted { $0.id < $1.id }
        let height = top + Double(ordered.count) * (panel + gap) + 10
        let tMax = max(1e-9, series.values.flatMap { $0.map(\.0) }.max() ?? 1)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (n, info) in ordered.enumerated() {
            let y0 = top + Double(n) * (panel + gap)
            let points = series[info.id] ?? []
            let thresholds = rules.filter { $0.selector.matches(info) }.compactMap { rule -> Double? in
                switch rule.condition {
                case .above(let t, _), .below(let t, _): return t
                case .predict(let p): return p.threshold
                default: return nil
                }
            }
            let values = points.compactMap(\.1) + thresholds
            var lo = values.min() ?? 0, hi = values.max() ?? 1
            if hi - lo < 1e-9 { lo -= 1; hi += 1 }
            let pad = (hi - lo) * 0.05
            lo -= pad
            hi += pad
            func x(_ t: Double) -> Double { left + t / tMax * (width - left - right) }
            func y(_ v: Double) -> Double { y0 + panel - (v - lo) / (hi - lo) * panel }
            svg += "<text x=\"\(left)\" y=\"\(y0 - 8)\">\(escape(info.id.rawValue))"
            svg += info.label.isEmpty ? "" : " (\(escape(info.label)))"
            svg += " [\(info.unit)]</text>\n"
            svg += "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(width - left - right)\" height=\"\(panel)\" fill=\"none\" stroke=\"#ccc\"/>\n"
            svg += "<text x=\"\(left - 4)\" y=\"\(y0 + 10)\" text-anchor=\"end\">\(EventFormatter.number((hi * 10).rounded() / 10))</text>\n"
            svg += "<text x=\"\(left - 4)\" y=\"\(y0 + panel)\" text-anchor=\"end\">\(EventFormatter.number((lo * 10).rounded() / 10))</text>\n"
            for t in thresholds {
                svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(f(y(t)))\" y2=\"\(f(y(t)))\" stroke=\"#d33\" stroke-dasharray=\"4 3\"/>\n"
            }
            // Failed reads break the line, so a gap shows as a gap.
            var run: [String] = []
            func flush() {
                if run.count > 1 { svg += "<polyline fill=\"none\" stroke=\"#1f6feb\" points=\"\(run.joined(separator: " "))\"/>\n" }
                run = []
            }
            for (t, v) in points {
                if let v { run.append("\(f(x(t))),\(f(y(v)))") } else { flush() }
            }
            flush()
            for e in events where e.sensor.id == info.id {
                let color = e.kind == .firing ? "#d33" : e.kind == .resolved ? "#2a2" : "#e90"
                let cy = e.value.map(y) ?? y0 + 6
                svg += "<circle cx=\"\(f(x(e.time.seconds)))\" cy=\"\(f(cy))\" r=\"4\" fill=\"\(color)\">"
                svg += "<title>\(escape(EventFormatter.line(e)))</title></circle>\n"
            }
        }
        svg += "<text x=\"\(left)\" y=\"\(Int(height) - 2)\">0 s … \(EventFormatter.number(tMax)) s</text>\n</svg>\n"
        return svg
    }

    private func f(_ v: Double) -> String { String((v * 10).rounded() / 10) }

    private func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
