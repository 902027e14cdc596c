@testable import SensorConfig
@testable import SensorCore
@testable import SensorSimulation
import SensorTestKit
import Testing
@testable import SensorRuntime
/// Events of predict rules (SPEC §10) as users see them: messages, `simulate` lines and JSON.
@MainActor
struct PredictEventTests {
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
    static let trend = PredictCondition(
        direction: .above, threshold: 90, hysteresis: 0, within: .seconds(600), over: .seconds(1800))

    static func event(
        _ kind: EventKind, value: Double?, predicted: Double?, predict: PredictCondition = trend
    ) -> AlertEvent {
        AlertEvent(
            time: .seconds(754.5), kind: kind, rule: "cpu-trend", ruleIndex: 0, sensor: cpu, severity: .warning,
            value: value, threshold: predict.threshold, condition: .predict, predict: predict, predicted: predicted)
    }

    @Test func messagesSayWhereItIsHeadingAsTheSpecShows() {
        #expect(
            (Self.event(.firing, value: 78, predicted: 93.2)).message
                == "cpu-trend firing: sim:cpu (CPU) 78 °C, heading above 90 °C within 10m (93.2 °C)")
        #expect(
            (Self.event(.resolved, value: 70, predicted: 84.1)).message
                == "cpu-trend resolved: sim:cpu (CPU) 70 °C, no longer heading above 90 °C within 10m (84.1 °C)")
        #expect(
            (Self.event(.repeat, value: 80.25, predicted: 95.123456)).message
                == "cpu-trend repeat: sim:cpu (CPU) 80.25 °C, heading above 90 °C within 10m (95.123 °C)")
    }

    @Test func withoutALineTheMessageLeavesThePredictionOut() {
        #expect(
            (Self.event(.resolved, value: 70, predicted: nil)).message
                == "cpu-trend resolved: sim:cpu (CPU) 70 °C, no longer heading above 90 °C within 10m")
    }

    @Test func belowAndOddDurationsAreWrittenAsAConfigWould() {
        let icing = PredictCondition(
            direction: .below, threshold: 0.5, hysteresis: 1, within: .seconds(5400), over: .seconds(60))
        #expect(
            (Self.event(.firing, value: 2.125, predicted: -0.4, predict: icing)).message
                == "cpu-trend firing: sim:cpu (CPU) 2.125 °C, heading below 0.5 °C within 1h30m (-0.4 °C)")
        let quick = PredictCondition(
            direction: .above, threshold: 90, within: .milliseconds(1500), over: .seconds(10))
        #expect(
            (Self.event(.firing, value: 89, predicted: 90.5, predict: quick)).message
                == "cpu-trend firing: sim:cpu (CPU) 89 °C, heading above 90 °C within 1.5s (90.5 °C)")
    }

    @Test func jsonCarriesPredictedAfterThresholdOnlyForPredictRules() {
        #expect(
            EventFormatter.json(Self.event(.firing, value: 78, predicted: 93.21234567))
                == #"{"time":754.5,"event":"firing","rule":"cpu-trend","sensor":"sim:cpu","severity":"warning","value":78,"threshold":90,"predicted":93.21234567}"#
        )
        #expect(
            EventFormatter.json(Self.event(.resolved, value: 70, predicted: nil))
                == #"{"time":754.5,"event":"resolved","rule":"cpu-trend","sensor":"sim:cpu","severity":"warning","value":70,"threshold":90,"predicted":null}"#
        )
        let plain = AlertEvent(
            time: .seconds(1), kind: .firing, rule: "hot", ruleIndex: 0, sensor: Self.cpu, severity: .warning,
            value: 81, threshold: 80, condition: .above)
        #expect(!EventFormatter.json(plain).contains("predicted"))
    }

    @Test func simulateLineCarriesTheMessage() {
        #expect(
            EventFormatter.line(Self.event(.firing, value: 78, predicted: 93.2))
                == "t=754.5s warning cpu-trend firing: sim:cpu (CPU) 78 °C, heading above 90 °C within 10m (93.2 °C)")
    }

    /// End to end through `simulate`: samples half a degree a second apart, a window of 2 s
    /// read 5 s ahead, so the prediction is the value plus 2.5 while the ramp lasts.
    @Test func simulateRunsPredictRulesOverAScenario() async throws {
        let dir = TemporaryDirectory()
        dir.write(
            "s.json5",
            """
            { duration: "8s", step: "1s", sensors: [ { id: "cpu", quantity: "temperature", label: "CPU",
              samples: [[0, 80], [1, 80.5], [2, 81], [3, 81.5], [4, 82], [5, 80], [6, null], [7, 84], [7.5, 85]] } ] }
            """)
        dir.write(
            "c.json5",
            """
            { sources: [ { type: "simulated", scenario: "s.json5" } ],
              rules: [ { name: "cpu-trend", sensor: "sim:cpu", predict: { above: 83.2, within: "5s", over: "2s" } } ] }
            """)
        let configuration = try ConfigLoader.load(path: dir.path("c.json5"))
        let events = await Simulator.run(
            scenarios: configuration.sources.compactMap(\.scenario), rules: configuration.rules)
        // 2: 81 + 2.5 = 83.5 fires. 5: over {3, 4, 5} the slope is -0.75, x̄ = 4, ȳ = 243.5/3,
        // at 10: 81.1667 - 0.75 · 6 = 76.667, resolved. 6 is a failed read (not evaluated).
        // 7: over {5, 7} slope 2, at 12: 84 + 10 = 94 fires. 7.5: over {5.5…7.5} = {7, 7.5}:
        // slope 2, at 12.5: 85 + 10 = 95, still firing.
        #expect(
            events.map(EventFormatter.line) == [
                "t=2s warning cpu-trend firing: sim:cpu (CPU) 81 °C, heading above 83.2 °C within 5s (83.5 °C)",
                "t=5s notice cpu-trend resolved: sim:cpu (CPU) 80 °C, no longer heading above 83.2 °C within 5s (76.667 °C)",
                "t=7s warning cpu-trend firing: sim:cpu (CPU) 84 °C, heading above 83.2 °C within 5s (94 °C)",
            ])
        #expect(events.map(\.predicted).map { $0.map { ($0 * 1e9).rounded() / 1e9 } } == [83.5, 76.666666667, 94])
    }
}
