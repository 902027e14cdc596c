import Testing
@testable import SensorCore

struct SimulatorTests {
    /// A scenario mixing quantities: `SensorData` splits each poll into one cycle per
    /// quantity; every sample must still be evaluated as its own sensor's (regression: the
    /// humidity sample was evaluated as the temperature sensor in the same position, so
    /// `dry` never fired and `hot` flapped on humidity values).
    @Test func mixedQuantityScenarioEvaluatesEachSensorsOwnSamples() async {
        let scenario = Scenario(
            duration: .seconds(3), step: .seconds(1), loop: false,
            sensors: [
                ScenarioSensor(id: "a-hum", quantity: .humidity, feed: .generated(
                    start: 40, segments: [.hold(.seconds(1)), .step(to: 10)], noise: 0)),
                ScenarioSensor(id: "b-temp", quantity: .temperature, feed: .generated(
                    start: 50, segments: [.hold(.seconds(2)), .step(to: 90)], noise: 0)),
            ])
        let rules = [
            Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(25, hysteresis: 0)),
            Rule(name: "hot", selector: SensorSelector(quantity: .temperature), condition: .above(80, hysteresis: 0)),
        ]
        let events = await Simulator.run(scenarios: [scenario], rules: rules)
        #expect(events.map { "\($0.time.seconds) \($0.rule) \($0.kind.rawValue) \($0.sensor.id)" } == [
            "1.0 dry firing sim:a-hum", "2.0 hot firing sim:b-temp",
        ])
    }
}
