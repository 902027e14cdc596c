@testable import SensorPlot
import SensorCore
import SensorRuntime
import Testing

@DaemonActor
struct SVGPlotTests {
    static let cpu = SensorInfo(id: SensorID(rawValue: "sim:cpu"), label: "CPU & <GPU>", quantity: .temperature)
    static let room = SensorInfo(id: SensorID(rawValue: "sim:room"), label: "Room", quantity: .humidity)

    /// A minute of both sensors, the cpu failing to read from 20 s to 25 s.
    static func plot() -> SVGPlot {
        let plot = SVGPlot()
        let list = SensorList(source: "sim", sensors: [cpu, room])
        for s in 0...60 {
            var readings = SensorValues(time: .seconds(Double(s)), capacity: 2)
            if (20...25).contains(s) { readings.appendFault("EIO <5>") } else { readings.append(50 + Double(s) / 2) }
            readings.append(40 - Double(s) / 3)
            plot.add(PollCycle(list: list, readings: readings))
        }
        return plot
    }

    static func rules() throws -> [Rule] {
        [
            Rule(
                name: #"hot<&">"#, selector: SensorSelector(sensor: try Glob("sim:cpu")),
                condition: .above(70, hysteresis: 5)),
            Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(25, hysteresis: 3)),
            Rule(name: "silent", selector: SensorSelector(sensor: try Glob("*")), condition: .stale(.seconds(3))),
        ]
    }

    static func event(
        _ kind: EventKind, _ t: Double, rule: String, index: Int, _ info: SensorInfo, _ v: Double?
    ) -> AlertEvent {
        AlertEvent(
            time: .seconds(t), kind: kind, rule: rule, ruleIndex: index, sensor: info, severity: .warning,
            value: v, threshold: 70, condition: .above)
    }

    static func events() -> [AlertEvent] {
        [
            event(.firing, 23, rule: "silent", index: 2, cpu, nil),
            event(.resolved, 26, rule: "silent", index: 2, cpu, 63),
            event(.firing, 41, rule: #"hot<&">"#, index: 0, cpu, 70.5),
            event(.repeat, 51, rule: #"hot<&">"#, index: 0, cpu, 75.5),
            event(.firing, 46, rule: "dry", index: 1, room, 24.7),
        ]
    }

    @Test func outputIsWellFormedWithNamesEscaped() throws {
        let svg = Self.plot().render(rules: try Self.rules(), events: Self.events(), subtitle: "a & b.json5")
        #expect(XMLWellFormedness.problem(svg) == nil)
        #expect(svg.contains("hot&lt;&amp;&quot;&gt;"))
        #expect(svg.contains("CPU &amp; &lt;GPU&gt;"))
        #expect(svg.contains("a &amp; b.json5"))
        #expect(!svg.contains(#"hot<&">"#))
    }

    @Test func thresholdLinesAreNamedWithTheirBand() throws {
        let svg = Self.plot().render(rules: try Self.rules(), events: Self.events())
        #expect(svg.contains("hot&lt;&amp;&quot;&gt; &gt; 70 °C (clears ≤ 65)"))
        #expect(svg.contains("dry &lt; 25 %RH (clears ≥ 28)"))
        // A rule without a value threshold has a legend entry but no line.
        #expect(svg.contains("silent: stale 3s · warning"))
    }

    @Test func firingSpansFailedReadsAndEventsAreDrawn() throws {
        let svg = Self.plot().render(rules: try Self.rules(), events: Self.events())
        #expect(svg.contains("silent firing 23 s – 26 s"))
        #expect(svg.contains("firing 41 s – end (still firing)"))
        #expect(svg.contains("6 failed reads 20 s – 25 s: EIO &lt;5&gt;"))
        #expect(svg.contains("<title>t=51s warning"))
        #expect(svg.contains("1m run"))
    }

    @Test func globsChooseThePanels() throws {
        let plot = Self.plot()
        let svg = plot.render(rules: try Self.rules(), events: Self.events(), panels: [try Glob("*room")])
        #expect(svg.contains(">sim:room<"))
        #expect(!svg.contains(">sim:cpu<"))
        #expect(svg.contains("1 of 2 sensors"))
        // Only the rules of shown sensors are in the legend.
        #expect(!svg.contains("hot&lt;"))
        #expect(plot.sensors(matching: try Glob("sim:*")).map(\.rawValue) == ["sim:cpu", "sim:room"])
        #expect(plot.sensors(matching: try Glob("nope*")).isEmpty)
    }

    @Test func anEmptyPlotIsStillADocument() {
        let svg = SVGPlot().render(rules: [], events: [])
        #expect(XMLWellFormedness.problem(svg) == nil)
        #expect(svg.contains("no sensor to plot"))
    }

    @Test func escapingReplacesWhatXMLForbids() {
        #expect(SVGWriter.escape("a<b>&\"c\u{1}d") == "a&lt;b&gt;&amp;&quot;c d")
        #expect(XMLWellFormedness.problem("<a><b x=\"1\"/></a>") == nil)
        #expect(XMLWellFormedness.problem("<a>x & y</a>") != nil)
        #expect(XMLWellFormedness.problem("<a><b></a>") != nil)
    }

    @Test func spansRunFromFiringToResolvedOrTheEnd() {
        let spans = FiringSpan.spans(of: Self.events().filter { $0.sensor == Self.cpu }, until: 60)
        #expect(
            spans == [
                FiringSpan(rule: #"hot<&">"#, ruleIndex: 0, start: 41, end: 60, open: true),
                FiringSpan(rule: "silent", ruleIndex: 2, start: 23, end: 26, open: false),
            ])
    }

    @Test func predictedLinesAreDashedNamedAndBrokenWhereThereIsNoLine() {
        var series = PlotSeries(info: Self.room)
        for s in 0...10 { series.append(time: .seconds(Double(s)), value: Double(s), fault: nil) }
        var points: [(time: Double, value: Double?)] = []
        for s in 0...10 {
            let t = Double(s)
            points.append((t, s == 0 || s == 5 ? nil : t * 2))
        }
        let line = PredictedLine(rule: "trend<", within: "10m", color: "#123456", points: points)
        let panel = PlotPanel(
            series: series, rules: [], events: [], timeTicks: TimeTicks(span: 10, maxTicks: 5), fontSize: 11, number: 0,
            predictions: [line])
        var svg = SVGWriter()
        panel.render(in: PlotFrame(x: 50, y: 20, width: 400, height: 100, timeSpan: 10), into: &svg)
        let dashed = svg.text.split(separator: "\n").filter {
            $0.contains("stroke=\"#123456\"") && $0.contains("stroke-dasharray=\"2 2\"")
        }
        #expect(dashed.count == 2)
        #expect(svg.text.contains(">trend&lt; predicted (+10m)</text>"))
    }
}
