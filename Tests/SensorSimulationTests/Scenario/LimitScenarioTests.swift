@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// Scenarios carry limits, `simulate` judges limit rules by them, and `record` writes the
/// limits of the recorded machine (SPEC §16).
@DaemonActor
struct LimitScenarioTests {
    @Test func simulateEvaluatesLimitRulesByTheScenariosLimits() async throws {
        let out = try await SimulatorSpecTests.simulate(
            rules: #"""
                [ { name: "too-hot", sensor: "*", above: "crit", severity: "critical" },
                  { name: "warm", sensor: "*", above: { limit: "max", otherwise: 60 } } ]
                """#,
            scenario: """
                { sensors: [
                  { id: "cpu", quantity: "temperature", limits: { crit: 100, crit_hyst: 95, max: 80 },
                    samples: [[0, 50], [1, 85], [2, 101], [3, 96], [4, 94]] },
                  { id: "disk", quantity: "temperature", samples: [[0, 50], [1, 61]] },
                ] }
                """)
        #expect(
            out == [
                #"{"time":1.0,"event":"firing","rule":"warm","sensor":"sim:cpu","severity":"warning","value":85,"threshold":80,"limit":"max"}"#,
                #"{"time":1.0,"event":"firing","rule":"warm","sensor":"sim:disk","severity":"warning","value":61,"threshold":60,"limit":null}"#,
                #"{"time":2.0,"event":"firing","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":101,"threshold":100,"limit":"crit"}"#,
                #"{"time":4.0,"event":"resolved","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":94,"threshold":100,"limit":"crit"}"#,
            ])
    }

    @Test func scenarioLimitsAreTakenAsTheyAreAndUnknownNamesAreErrors() {
        let files = TemporaryDirectory()
        files.write(
            "s.json5",
            #"{ sensors: [ { id: "a", quantity: "temperature", limits: { crit: 900, critical: 1, max: "x" }, samples: [[0, 1]] } ] }"#
        )
        #expect(
            files.scenarioErrors("s.json5") == [
                "s.json5: sensors[0].limits.critical: unknown limit (expected min, lcrit, max, crit, emergency, hot, passive, active, cap, or one of them with _hyst)",
                "s.json5: sensors[0].limits.max: expected a number, found a string",
            ])
    }

    @Test func recordWritesEachSensorsLimitsAsFirstDiscoveredAndTheyReadBack() throws {
        let zone = SensorInfo(
            id: "hwmon:nvme/temp1", label: "Composite", quantity: .temperature,
            limits: SensorLimits(
                values: ["crit": 84.85, "max": 81.85], ignored: ["min": "-273.15 °C is not a plausible limit"]))
        var later = zone
        later.limits = SensorLimits(values: ["crit": 70])
        var recorder = Recorder()
        for (t, info) in [(0.0, zone), (1.0, later)] {
            var readings = SensorValues(time: .seconds(t), capacity: 1)
            readings.append(40)
            recorder.add(PollCycle(list: SensorList(source: "hwmon#1", sensors: [info]), readings: readings))
        }
        let scenario = try #require(recorder.scenario(step: .seconds(1)))
        let text = ScenarioWriter.json(scenario)
        #expect(
            text.contains(
                #"{"id": "hwmon:nvme/temp1", "quantity": "temperature", "label": "Composite", "limits": {"max": 81.85, "crit": 84.85},"#
            ))
        let back = try ScenarioLoader.load(contents: Array(text.utf8), path: "/r.json")
        #expect(back.sensors.first?.info.limits == SensorLimits(values: ["crit": 84.85, "max": 81.85]))
    }

    /// SPEC §16a: a recording keeps a fan's, a rail's, a power and a current sensor's
    /// quantity and limits, and they read back as they were.
    @Test func recordKeepsFansVoltagesPowerAndCurrentWithTheirLimits() throws {
        let sensors = [
            SensorInfo(
                id: "hwmon:nct6798/fan2", label: "CPU fan", quantity: .fan, limits: SensorLimits(values: ["min": 300])),
            SensorInfo(
                id: "hwmon:nct6798/in0", quantity: .voltage, limits: SensorLimits(values: ["min": 1.1, "max": 1.3])),
            SensorInfo(id: "hwmon:amdgpu/power1", quantity: .power, limits: SensorLimits(values: ["cap": 220])),
            SensorInfo(id: "hwmon:ina3221/curr1", quantity: .current, limits: SensorLimits(values: ["crit": 2])),
        ]
        var recorder = Recorder()
        var readings = SensorValues(time: .zero, capacity: sensors.count)
        for v in [1200, 1.2, 35.5, 0.75] { readings.append(v) }
        recorder.add(PollCycle(list: SensorList(source: "hwmon#1", sensors: sensors), readings: readings))
        let scenario = try #require(recorder.scenario(step: .seconds(1)))
        let back = try ScenarioLoader.load(contents: Array(ScenarioWriter.json(scenario).utf8), path: "/r.json")
        let byID = Dictionary(uniqueKeysWithValues: back.sensors.map { ($0.info.id, $0.info) })
        for sensor in sensors {
            #expect(byID[sensor.id]?.quantity == sensor.quantity)
            #expect(byID[sensor.id]?.limits == sensor.limits)
        }
    }
}
