package import SensorCore
package import SensorRuntime

/// Draws a simulation as SVG, for tuning rules by eye: a title, a legend, and one panel per
/// sensor (see ``PlotPanel``) on a shared time axis. A plain text file, no dependencies.
@DaemonActor
package final class SVGPlot {
    private var series: [PlotSeries] = []
    private var index: [SensorID: Int] = [:]
    /// Per source, its current list (checked by identity, as ``SensorList`` asks) and where
    /// each listed sensor's series is, so a reading finds its series without an id.
    private var sources: [String: (list: SensorList, positions: [Int])] = [:]

    /// An empty plot; feed it every cycle with ``add(_:)`` (on the actor `simulate` runs on).
    package nonisolated init() {}

    /// Records the read attempts of a cycle.
    package func add(_ cycle: PollCycle) {
        let list = cycle.list
        let positions: [Int]
        if let known = sources[list.source], known.list === list {
            positions = known.positions
        } else {
            positions = list.sensors.map { info in
                if let n = index[info.id] { return n }
                series.append(PlotSeries(info: info))
                index[info.id] = series.count - 1
                return series.count - 1
            }
            sources[list.source] = (list, positions)
        }
        let readings = cycle.readings
        for k in 0..<list.count where readings.wasRead(k) {
            series[positions[k]].append(
                time: readings.time, value: readings.value(at: k), fault: readings.faults[k]?.description)
        }
    }

    /// The ids of every sensor seen, in natural order (`rack2` before `rack10`).
    package var sensorIDs: [SensorID] { index.keys.sorted { NaturalOrder.less($0.rawValue, $1.rawValue) } }

    /// The read attempts of one sensor, nil for a sensor not seen.
    package func series(of id: SensorID) -> PlotSeries? { index[id].map { series[$0] } }

    /// The ids among ``sensorIDs`` that `glob` matches.
    package func sensors(matching glob: Glob) -> [SensorID] {
        sensorIDs.filter { glob.matches($0.rawValue) }
    }

    /// The SVG document.
    ///
    /// - Parameters:
    ///   - rules: the configuration's rules, in order (colours follow it).
    ///   - events: every event of the run, in time order.
    ///   - panels: globs choosing the sensors to draw; empty draws every sensor.
    ///   - subtitle: a line under the title (which configuration, which scenario).
    package func render(rules: [Rule], events: [AlertEvent], panels: [Glob] = [], subtitle: String = "") -> String {
        let shown =
            series
            .filter { s in panels.isEmpty || panels.contains { $0.matches(s.info.id.rawValue) } }
            .sorted { NaturalOrder.less($0.info.id.rawValue, $1.info.id.rawValue) }
        let span = max(series.map(\.lastTime).max() ?? 0, events.last?.time.seconds ?? 0, 1e-3)

        // Rules that concern a shown sensor, in configuration order, each with its colour.
        let shownIDs = Set(shown.map(\.info.id))
        let shownRules = rules.enumerated().filter { n, rule in
            shown.contains { rule.selector.matches($0.info) && rule.resolved(for: $0.info) != nil }
                || events.contains { $0.ruleIndex == n && shownIDs.contains($0.sensor.id) }
        }.map(\.element)
        let styles = shownRules.enumerated().map { PlotRuleStyle(rule: $1, color: PlotPalette.rule($0)) }

        let probe = PlotLayout(count: shown.count, top: 0)
        // Each shown sensor's rules, worked out once for its predictions and its panel.
        // A limit rule is drawn at each sensor's own threshold (SPEC §16), and not at all
        // where it does not select the sensor.
        let stylesOf = Dictionary(
            uniqueKeysWithValues: shown.map { s in
                (
                    s.info.id,
                    styles.compactMap { style -> PlotRuleStyle? in
                        guard style.rule.selector.matches(s.info), let rule = style.rule.resolved(for: s.info) else {
                            return nil
                        }
                        return PlotRuleStyle(rule: rule, color: style.color)
                    }
                )
            })
        let predictions = Dictionary(
            uniqueKeysWithValues: shown.map { s in
                (s.info.id, stylesOf[s.info.id]!.compactMap { PlotPredictor.line($0.rule, color: $0.color, series: s) })
            })
        var keys: [LegendItem] = [
            .value, .failed, .threshold, .firing, .event(.firing), .event(.resolved), .event(.repeat),
        ]
        if predictions.values.contains(where: { !$0.isEmpty }) { keys.append(.predicted) }
        let legend = PlotLegend(
            keys: keys,
            rules: styles.map { .rule(name: $0.rule.name, summary: RuleSummary.text($0.rule), color: $0.color) },
            width: probe.width - 2 * PlotLayout.margin, fontSize: probe.fontSize)
        let legendTop = 50.0
        let layout = PlotLayout(count: shown.count, top: legendTop + legend.height + 16)
        let c = SVGWriter.coordinate

        var svg = SVGWriter()
        let height = max(layout.height, layout.top + 30)
        svg.open(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg", "width": c(layout.width), "height": c(height),
                "viewBox": "0 0 \(c(layout.width)) \(c(height))",
                "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", "font-size": c(layout.fontSize),
                "fill": PlotPalette.text,
            ])
        svg.element("title", [:], text: subtitle.isEmpty ? "sensorwatch simulate" : "sensorwatch simulate: " + subtitle)
        svg.element("rect", ["width": "100%", "height": "100%", "fill": "#fafafa"])
        svg.element(
            "text", ["x": c(PlotLayout.margin), "y": "22", "font-size": "15", "font-weight": "bold"],
            text: "sensorwatch simulate")
        let counts =
            "\(shown.count) of \(series.count) sensor\(series.count == 1 ? "" : "s") · \(events.count) event\(events.count == 1 ? "" : "s") · \(NumberText.duration(seconds: span)) run"
        svg.element(
            "text", ["x": c(PlotLayout.margin), "y": "40", "fill": PlotPalette.muted],
            text: subtitle.isEmpty ? counts : subtitle + " · " + counts)
        legend.render(x: PlotLayout.margin, y: legendTop, into: &svg)
        if shown.isEmpty {
            svg.element("text", ["x": c(PlotLayout.margin), "y": c(layout.top + 16)], text: "no sensor to plot")
        }

        let eventsBySensor = Dictionary(grouping: events, by: \.sensor.id)
        for (n, s) in shown.enumerated() {
            var frame = layout.frame(n)
            frame.timeSpan = span
            let ticks = TimeTicks(span: span, maxTicks: Int(frame.width / (layout.isCompact ? 80 : 90)))
            let panel = PlotPanel(
                series: s, rules: stylesOf[s.info.id]!,
                events: eventsBySensor[s.info.id] ?? [], timeTicks: ticks, fontSize: layout.fontSize, number: n,
                predictions: predictions[s.info.id] ?? [])
            panel.render(in: frame, into: &svg)
        }
        svg.close("svg")
        return svg.text
    }
}
