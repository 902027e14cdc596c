@testable import SensorConfig
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing
@testable import SensorCore
/// What `record` writes: plain JSON that the scenario loader reads back unchanged.
struct ScenarioWriterTests {
    static let humidity: [TimedValue] = (0...11).map { (i: Int) -> TimedValue in
        let value: Double? = i == 3 ? nil : 40 + Double(i) / 8
        return TimedValue(time: Timestamp(nanoseconds: Int64(i) * 500_000_000), value: value)
    }

    static let recorded = Scenario(
        duration: .nanoseconds(10_500_000_001), step: .milliseconds(500), loop: false,
        sensors: [
            ScenarioSensor(id: "hwmon:sht3x/humidity1", quantity: .humidity, feed: .samples(humidity)),
            ScenarioSensor(
                id: "thermal:thermal_zone0", quantity: .temperature, label: "x86 \"pkg\"",
                feed: .samples([
                    TimedValue(time: Timestamp.seconds(10.5), value: -0.001),
                    TimedValue(time: Timestamp(nanoseconds: 10_500_000_001), value: 1e-7),
                ])),
        ])

    @Test func writesOneSensorPerGroupTenSamplesALine() {
        #expect(
            ScenarioWriter.json(Self.recorded) == """
                {
                  "duration": "10.500000001s",
                  "step": "500ms",
                  "loop": false,
                  "sensors": [
                    {"id": "hwmon:sht3x/humidity1", "quantity": "humidity",
                     "samples": [
                       [0, 40], [0.5, 40.125], [1, 40.25], [1.5, null], [2, 40.5], [2.5, 40.625], [3, 40.75], [3.5, 40.875], [4, 41], [4.5, 41.125],
                       [5, 41.25], [5.5, 41.375]
                     ]},
                    {"id": "thermal:thermal_zone0", "quantity": "temperature", "label": "x86 \\"pkg\\"",
                     "samples": [
                       [10.5, -0.001], [10.500000001, 1e-07]
                     ]}
                  ]
                }

                """)
    }

    @Test(arguments: [
        recorded,
        Scenario(
            duration: .seconds(600), step: .milliseconds(250), seed: 42, loop: true,
            sensors: [
                ScenarioSensor(
                    id: "cpu", quantity: .temperature, label: "CPU",
                    feed: .generated(
                        start: 45,
                        segments: [
                            .ramp(to: 90, over: .seconds(120)), .hold(.seconds(60)), .step(to: 50),
                            .sine(amplitude: 3, period: .seconds(10), over: .seconds(60)),
                            .dropout(.milliseconds(1500)),
                        ], noise: 0.5)),
                ScenarioSensor(id: "room", quantity: .pressure, feed: .samples([])),
            ]),
    ])
    func readsBackAsTheSameScenario(scenario: Scenario) throws {
        let text = ScenarioWriter.json(scenario)
        #expect(try ScenarioLoader.load(contents: Array(text.utf8), path: "r.json") == scenario)
    }

    @Test func aRecordingOfOnePollLeavesOutItsZeroDuration() throws {
        let one = Scenario(
            duration: .zero, step: .seconds(1), loop: false,
            sensors: [
                ScenarioSensor(
                    id: "thermal:thermal_zone0", quantity: .temperature,
                    feed: .samples([TimedValue(time: .zero, value: 47)]))
            ])
        let text = ScenarioWriter.json(one)
        #expect(!text.contains("duration"))
        #expect(try ScenarioLoader.load(contents: Array(text.utf8), path: "r.json") == one)
    }
}
