import SensorCore
import SensorRuntime
/// One sensor's panel: title, value axis with its unit, time axis, the measured line with
/// gaps and marks where reads failed, each threshold rule's line (named) and hysteresis
/// band, a predict rule's predicted line, the spans during which each rule fired, and a
/// marker per event.
struct PlotPanel {
    let series: PlotSeries
    /// The rules that select this panel's sensor, each with its legend colour.
    let rules: [PlotRuleStyle]
    /// This sensor's events, in time order.
    let events: [AlertEvent]
    let timeTicks: TimeTicks
    let fontSize: Double
    /// A number unique in the document (for the clip path's id).
    let number: Int
    /// The predictions of this sensor's predict rules.
    var predictions: [PredictedLine] = []

    /// The value range shown: the readings and every threshold and band edge, and the
    /// predictions as far as half the readings' range beyond them (a prediction from a
    /// window of two noisy samples can be far off; past that it is clipped), with a margin,
    /// widened to whole ticks. `readings` is the series' value range.
    func valueTicks(plotHeight: Double, readings: (low: Double, high: Double)?) -> ValueTicks {
        var values: [Double] = readings.map { [$0.low, $0.high] } ?? []
        for style in rules {
            if let g = ThresholdGuide(style.rule.condition) { values += [g.threshold, g.clearsAt] }
        }
        if let lo = values.min(), let hi = values.max() {
            let reach = max(hi - lo, 1) * 0.5
            for line in predictions {
                for case let (_, p?) in line.points { values.append(min(hi + reach, max(lo - reach, p))) }
            }
        }
        var lo = values.min() ?? 0, hi = values.max() ?? 1
        let pad = (hi - lo) * 0.04
        lo -= pad
        hi += pad
        return ValueTicks(low: lo, high: hi, maxTicks: max(3, Int(plotHeight / 22)))
    }

    /// Draws the panel with its data area at `area` (the time span already set).
    func render(in area: PlotFrame, into svg: inout SVGWriter) {
        // Each a scan of every reading: worked out once for the panel.
        let range = series.valueRange
        let failedRuns = series.failedRuns
        let ticks = valueTicks(plotHeight: area.height, readings: range)
        var frame = area
        frame.low = ticks.low
        frame.high = ticks.high
        let c = SVGWriter.coordinate
        let small = fontSize - 1

        drawTitle(frame, hasReadings: range != nil, into: &svg)
        svg.element(
            "rect",
            ["x": c(frame.x), "y": c(frame.y), "width": c(frame.width), "height": c(frame.height), "fill": "white"])
        // Value axis: grid line and label per tick, the unit above the labels.
        for v in ticks.values {
            let y = frame.y(v)
            svg.element(
                "line", ["x1": c(frame.x), "x2": c(frame.right), "y1": c(y), "y2": c(y), "stroke": PlotPalette.grid])
            svg.element(
                "text",
                [
                    "x": c(frame.x - 5), "y": c(y + small * 0.35), "text-anchor": "end", "font-size": c(small),
                    "fill": PlotPalette.muted,
                ], text: ticks.label(v))
        }
        // Time axis: grid line, tick mark and label per tick.
        for t in timeTicks.values {
            let x = frame.x(t)
            svg.element(
                "line", ["x1": c(x), "x2": c(x), "y1": c(frame.y), "y2": c(frame.bottom), "stroke": PlotPalette.grid])
            svg.element(
                "line",
                ["x1": c(x), "x2": c(x), "y1": c(frame.bottom), "y2": c(frame.bottom + 4), "stroke": PlotPalette.frame])
            // The end labels stay within the frame's width.
            let anchor = t == 0 ? "start" : x > frame.right - 20 ? "end" : "middle"
            svg.element(
                "text",
                [
                    "x": c(x), "y": c(frame.bottom + 4 + small), "text-anchor": anchor, "font-size": c(small),
                    "fill": PlotPalette.muted,
                ], text: timeTicks.label(t))
        }

        svg.open("g", ["clip-path": "url(#clip\(number))"])
        svg.open("clipPath", ["id": "clip\(number)"])
        svg.element("rect", ["x": c(frame.x), "y": c(frame.y), "width": c(frame.width), "height": c(frame.height)])
        svg.close("clipPath")
        drawFiringSpans(frame, into: &svg)
        drawFailedRuns(failedRuns, frame, into: &svg)
        drawGuides(frame, into: &svg)
        let values = pixels(series.connectedRuns, frame)
        let predicted = predictions.map { pixels($0.connectedRuns, frame) }
        drawLine(values, color: PlotPalette.value, dash: nil, into: &svg)
        for (line, runs) in zip(predictions, predicted) {
            drawLine(runs, color: line.color, dash: "2 2", into: &svg)
        }
        svg.close("g")
        svg.element(
            "rect",
            [
                "x": c(frame.x), "y": c(frame.y), "width": c(frame.width), "height": c(frame.height), "fill": "none",
                "stroke": PlotPalette.frame,
            ])
        drawFailedMarks(failedRuns, frame, into: &svg)
        drawEvents(frame, into: &svg)
        drawGuideLabels(frame, avoiding: values + predicted.flatMap { $0 }, into: &svg)
    }

    private func color(of rule: String) -> String {
        rules.first { $0.rule.name == rule }?.color ?? PlotPalette.muted
    }

    /// The sensor's id (bold), label and unit on the left; on the right, in grey, how many
    /// alerts fired and reads failed. A label too long for the room left is shortened.
    private func drawTitle(_ frame: PlotFrame, hasReadings: Bool, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        let baseline = frame.y - 6
        var notes: [String] = []
        let fired = events.filter { $0.kind == .firing }.count
        if fired > 0 { notes.append("\(fired) alert\(fired == 1 ? "" : "s") fired") }
        let failed = series.failedCount
        if failed > 0 { notes.append("\(failed) failed read\(failed == 1 ? "" : "s")") }
        if !hasReadings { notes.append("no readings") }
        let note = notes.joined(separator: " · ")
        let id = series.info.id.rawValue, unit = series.info.unit
        let room =
            frame.width - TextMetrics.width(note, fontSize: fontSize - 1) - 16
            - TextMetrics.width(id, fontSize: fontSize) * 1.1 - TextMetrics.width(unit, fontSize: fontSize) - 16
        let label = Self.shortened(series.info.label, toFit: room, fontSize: fontSize)

        svg.open("text", ["x": c(frame.x), "y": c(baseline)])
        svg.element("tspan", ["font-weight": "bold"], text: id)
        // Gaps as dx, not spaces: SVG collapses the whitespace at a tspan's start.
        if !label.isEmpty { svg.element("tspan", ["dx": "8"], text: label) }
        svg.element("tspan", ["dx": "8", "fill": PlotPalette.muted], text: unit)
        svg.close("text")
        if !note.isEmpty {
            svg.element(
                "text",
                [
                    "x": c(frame.right), "y": c(baseline), "text-anchor": "end", "font-size": c(fontSize - 1),
                    "fill": PlotPalette.muted,
                ], text: note)
        }
    }

    /// `text`, cut with an ellipsis to fit `width` pixels (empty when not even that fits).
    static func shortened(_ text: String, toFit width: Double, fontSize: Double) -> String {
        if TextMetrics.width(text, fontSize: fontSize) <= width { return text }
        var cut = text
        while !cut.isEmpty, TextMetrics.width(cut + "…", fontSize: fontSize) > width { cut.removeLast() }
        return cut.isEmpty ? "" : cut + "…"
    }

    private func drawFiringSpans(_ frame: PlotFrame, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        let spans = FiringSpan.spans(of: events, until: frame.timeSpan)
        let lanes = Array(Set(spans.map(\.ruleIndex))).sorted()
        for span in spans {
            let x0 = frame.x(span.start), x1 = max(frame.x(span.end), x0 + 2)
            let color = color(of: span.rule)
            let lane = Double(lanes.firstIndex(of: span.ruleIndex) ?? 0)
            let tip =
                "\(span.rule) firing \(timeTicks.label(span.start)) – "
                + (span.open ? "end (still firing)" : timeTicks.label(span.end))
            svg.element(
                "rect",
                [
                    "x": c(x0), "y": c(frame.y), "width": c(x1 - x0), "height": c(frame.height), "fill": color,
                    "fill-opacity": "0.1",
                ], tooltip: tip)
            svg.element(
                "rect", ["x": c(x0), "y": c(frame.y + lane * 4), "width": c(x1 - x0), "height": "3", "fill": color])
        }
    }

    private func drawFailedRuns(_ runs: [FailedRun], _ frame: PlotFrame, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        for run in runs {
            let x0 = frame.x(run.start), x1 = max(frame.x(run.recovered ?? run.last), x0 + 2)
            svg.element(
                "rect",
                [
                    "x": c(x0), "y": c(frame.y), "width": c(x1 - x0), "height": c(frame.height), "fill": "#000",
                    "fill-opacity": "0.06",
                ])
        }
    }

    private func drawFailedMarks(_ runs: [FailedRun], _ frame: PlotFrame, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        for run in runs {
            let x0 = frame.x(run.start) - 1, x1 = max(frame.x(run.last) + 1, x0 + 3)
            let what =
                run.count == 1
                ? "failed read at \(timeTicks.label(run.start))"
                : "\(run.count) failed reads \(timeTicks.label(run.start)) – \(timeTicks.label(run.last))"
            svg.element(
                "rect",
                ["x": c(x0), "y": c(frame.bottom - 4), "width": c(x1 - x0), "height": "4", "fill": PlotPalette.failed],
                tooltip: "\(what): \(run.reason)")
        }
    }

    private func drawGuides(_ frame: PlotFrame, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        for style in rules {
            guard let g = ThresholdGuide(style.rule.condition) else { continue }
            let y = frame.y(g.threshold)
            if g.hasBand {
                let yc = frame.y(g.clearsAt)
                svg.element(
                    "rect",
                    [
                        "x": c(frame.x), "y": c(min(y, yc)), "width": c(frame.width), "height": c(abs(yc - y)),
                        "fill": style.color, "fill-opacity": "0.13",
                    ])
            }
            svg.element(
                "line",
                [
                    "x1": c(frame.x), "x2": c(frame.right), "y1": c(y), "y2": c(y), "stroke": style.color,
                    "stroke-width": "1.4", "stroke-dasharray": "6 3",
                ])
        }
    }

    /// Names each threshold line and each predicted line, where no other label is.
    private func drawGuideLabels(
        _ frame: PlotFrame, avoiding lines: [[(x: Double, y: Double)]], into svg: inout SVGWriter
    ) {
        let c = SVGWriter.coordinate
        var placer = LabelPlacer(frame: frame, lines: lines)
        let size = fontSize - 1
        let guides = rules.compactMap { style in
            ThresholdGuide(style.rule.condition).map {
                (rule: style.rule.name, style: style, guide: $0, y: frame.y($0.threshold))
            }
        }
        /// Right-aligned at the panel's right edge, then further left, first at `first`
        /// then at `second` (baselines), clear of the threshold lines of other rules.
        func put(_ text: String, color: String, first: Double, second: Double, ownLine: String?) {
            let w = TextMetrics.width(text, fontSize: size) * 1.1  // bold
            var candidates: [(right: Double, baseline: Double)] = []
            for k in 0..<6 {
                let right = frame.right - 6 - Double(k) * (frame.width / 6)
                candidates += [(right, first), (right, second)]
            }
            let others = guides.filter { $0.rule != ownLine }.map { [(frame.x, $0.y), (frame.right, $0.y)] }
            let at = placer.place(width: w, height: size, candidates: candidates, avoiding: others)
            svg.element(
                "text",
                [
                    "x": c(at.right), "y": c(at.baseline), "text-anchor": "end", "font-size": c(size), "fill": color,
                    "font-weight": "bold",
                    "stroke": "white", "stroke-width": "3", "stroke-linejoin": "round", "paint-order": "stroke",
                ], text: text)
        }
        for (_, style, g, y) in guides {
            let yc = frame.y(g.clearsAt)
            // Above the line for `above` (outside the band), below it for `below`.
            let outside = g.above ? y - 3 : y + size + 1
            let inside = g.above ? max(y, yc) + size + 1 : min(y, yc) - 3
            put(
                g.label(rule: style.rule.name, unit: series.info.unit), color: style.color, first: outside,
                second: inside, ownLine: style.rule.name)
        }
        for line in predictions {
            guard let value = line.points.last(where: { $0.value != nil })?.value else { continue }
            let y = frame.clampedY(value)
            put(line.label, color: line.color, first: y - 4, second: y + size + 2, ownLine: nil)
        }
    }

    /// Each run in pixels, thinned to what the pixels show.
    private func pixels(_ runs: [[(time: Double, value: Double)]], _ frame: PlotFrame) -> [[(x: Double, y: Double)]] {
        runs.map { run in
            PolylineDecimator.decimate(run.map { (frame.x($0.time), frame.y($0.value)) }, columnsWide: frame.width)
        }
    }

    /// A polyline per run; a lone point as a dot.
    private func drawLine(_ runs: [[(x: Double, y: Double)]], color: String, dash: String?, into svg: inout SVGWriter) {
        let c = SVGWriter.coordinate
        for run in runs {
            if run.count == 1 {
                svg.element("circle", ["cx": c(run[0].x), "cy": c(run[0].y), "r": "1.5", "fill": color])
                continue
            }
            var points = ""
            points.reserveCapacity(run.count * 12)
            for p in run { points += c(p.x) + "," + c(p.y) + " " }
            svg.element(
                "polyline",
                [
                    "points": String(points.dropLast()), "fill": "none", "stroke": color, "stroke-width": "1.5",
                    "stroke-linejoin": "round", "stroke-dasharray": dash ?? "none",
                ])
        }
    }

    private func drawEvents(_ frame: PlotFrame, into svg: inout SVGWriter) {
        for e in events {
            // A stale alert fires without a value: its marker sits at the top edge.
            let y = e.value.map(frame.clampedY) ?? frame.y + 13
            EventMarker.draw(
                e.kind, x: frame.x(e.time.seconds), y: y, color: color(of: e.rule), tooltip: EventFormatter.line(e),
                into: &svg)
        }
    }
}
