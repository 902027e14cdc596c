@testable import SensorPlot
import SensorConfig
import SensorCore
import SensorRuntime
import SensorSimulation
import Testing

@DaemonActor
struct PlotPredictorTests {
    /// A noisy ramp with a dropout, and a predict rule over it.
    static func scenario() -> Scenario {
        Scenario(
            duration: .seconds(120), step: .milliseconds(500), seed: 3,
            sensors: [
                ScenarioSensor(
                    id: "cpu", quantity: .temperature,
                    feed: .generated(
                        start: 40,
                        segments: [
                            .ramp(to: 90, over: .seconds(50)), .dropout(.seconds(5)), .ramp(to: 40, over: .seconds(50)),
                        ],
                        noise: 0.7))
            ])
    }

    @Test func thePlottedPredictionIsTheOneTheRuleCompared() async throws {
        let rule = Rule(
            name: "trend", selector: SensorSelector(sensor: try Glob("*")),
            condition: .predict(
                PredictCondition(
                    direction: .above, threshold: 80, hysteresis: 4, within: .seconds(20), over: .seconds(15))))
        let plot = SVGPlot()
        let events = await Simulator.run(scenarios: [Self.scenario()], rules: [rule], observe: { plot.add($0) })
        #expect(events.count >= 2)
        let series = try #require(plot.series(of: SensorID(rawValue: "sim:cpu")))
        let line = try #require(PlotPredictor.line(rule, color: "#000", series: series))
        for e in events {
            let point = try #require(line.points.first { $0.time == e.time.seconds })
            #expect(point.value == e.predicted, "at \(e.time)")
        }
        // Failed reads break the line.
        #expect(line.connectedRuns.count == 2)
        #expect(
            PlotPredictor.line(
                Rule(name: "x", selector: SensorSelector(), condition: .above(1, hysteresis: 0)), color: "",
                series: series) == nil)
    }
}
