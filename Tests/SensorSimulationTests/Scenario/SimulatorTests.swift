@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
@testable import SensorSimulation
import Testing

struct SimulatorTests {
    /// A scenario mixing quantities: `SensorData` splits each poll into one cycle per
    /// quantity; every sample must still be evaluated as its own sensor's (regression: the
    /// humidity sample was evaluated as the temperature sensor in the same position, so
    /// `dry` never fired and `hot` flapped on humidity values).
    @Test func mixedQuantityScenarioEvaluatesEachSensorsOwnSamples() async {
        let scenario = Scenario(
            duration: .seconds(3), step: .seconds(1), loop: false,
            sensors: [
                ScenarioSensor(
                    id: "a-hum", quantity: .humidity,
                    feed: .generated(
                        start: 40, segments: [.hold(.seconds(1)), .step(to: 10)], noise: 0)),
                ScenarioSensor(
                    id: "b-temp", quantity: .temperature,
                    feed: .generated(
                        start: 50, segments: [.hold(.seconds(2)), .step(to: 90)], noise: 0)),
            ])
        let rules = [
            Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(25, hysteresis: 0)),
            Rule(name: "hot", selector: SensorSelector(quantity: .temperature), condition: .above(80, hysteresis: 0)),
        ]
        let events = await Simulator.run(scenarios: [scenario], rules: rules)
        #expect(
            events.map { "\($0.time.seconds) \($0.rule) \($0.kind.rawValue) \($0.sensor.id)" } == [
                "1.0 dry firing sim:a-hum", "2.0 hot firing sim:b-temp",
            ])
    }
}

/// `simulate` takes a source's steps as one poll when no other source polls in between
/// (SourceSupervisor.play): the cycles must be those polls one step at a time give, in the
/// same order — readings up to each tick, then the tick; sources interleaved by time.
@DaemonActor
struct SimulatorBatchedPollTests {
    /// Every cycle the rule loop is handed, as `source time [sensor=value…] tick`.
    static func cycles(_ scenarios: [Scenario]) async -> [String] {
        var seen: [String] = []
        _ = await Simulator.run(
            scenarios: scenarios,
            rules: [
                Rule(name: "any", selector: SensorSelector(), condition: .above(1000, hysteresis: 0))
            ]
        ) { cycle in
            let read = cycle.sensors.indices.compactMap { i in
                cycle.readings.value(at: i).map { "\(cycle.sensors[i].id)=\(NumberText.number($0))" }
            }
            seen.append(
                "\(cycle.source) \(cycle.time.seconds) [\(read.joined(separator: " "))]\(cycle.tick ? " tick" : "")")
        }
        return seen
    }

    static func explicit(_ id: String, _ samples: [(Double, Double)]) -> ScenarioSensor {
        ScenarioSensor(
            id: id, quantity: .temperature,
            feed: .samples(
                samples.map {
                    TimedValue(time: Timestamp(nanoseconds: Int64($0.0 * 1e9)), value: $0.1)
                }))
    }

    @Test func offStepSamplesComeBetweenTheTicksAndTheEndOffAStepHasNoTick() async {
        let scenario = Scenario(
            duration: .milliseconds(5500), step: .seconds(1), loop: false,
            sensors: [
                Self.explicit("a", [(0, 1), (0.5, 2), (1, 3), (2.5, 4), (5.5, 5)]),
                ScenarioSensor(id: "b", quantity: .temperature, feed: .generated(start: 7, segments: [], noise: 0)),
            ])
        #expect(
            await Self.cycles([scenario]) == [
                "sim#0 0.0 [sim:a=1 sim:b=7] tick",
                "sim#0 0.5 [sim:a=2]",
                "sim#0 1.0 [sim:a=3 sim:b=7] tick",
                "sim#0 2.0 [sim:b=7] tick",
                "sim#0 2.5 [sim:a=4]",
                "sim#0 3.0 [sim:b=7] tick",
                "sim#0 4.0 [sim:b=7] tick",
                "sim#0 5.0 [sim:b=7] tick",
                // The poll at the end, off a step: no tick (a generated sensor has no sample there).
                "sim#0 5.5 [sim:a=5]",
            ])
    }

    @Test func twoSourcesAreInterleavedByTimeTiesInSourceOrder() async {
        let slow = Scenario(
            duration: .seconds(2), step: .seconds(1), loop: false,
            sensors: [Self.explicit("s", [(0, 1), (1, 2), (2, 3)])])
        let fast = Scenario(
            duration: .milliseconds(1200), step: .milliseconds(400), loop: false,
            sensors: [Self.explicit("f", [(0, 4), (0.4, 5), (0.8, 6), (1.2, 7)])])
        #expect(
            await Self.cycles([slow, fast]) == [
                "sim#0 0.0 [sim:s=1] tick",
                "sim#1 0.0 [sim:f=4] tick",
                "sim#1 0.4 [sim:f=5] tick",
                "sim#1 0.8 [sim:f=6] tick",
                "sim#0 1.0 [sim:s=2] tick",
                "sim#1 1.2 [sim:f=7] tick",
                "sim#0 2.0 [sim:s=3] tick",
            ])
    }

    @Test func aLongScenarioIsHandedOverWholeAndInOrder() async {
        // More steps than one batch of polls takes: every step once, each with its tick.
        let steps = SourceSupervisor.virtualBatch * 2 + 3
        let scenario = Scenario(
            duration: .seconds(Int64(steps - 1)), step: .seconds(1), loop: false,
            sensors: [
                ScenarioSensor(id: "x", quantity: .temperature, feed: .generated(start: 1, segments: [], noise: 0))
            ])
        let seen = await Self.cycles([scenario])
        #expect(seen.count == steps)
        #expect(seen == (0..<steps).map { "sim#0 \(Double($0)) [sim:x=1] tick" })
    }
}
