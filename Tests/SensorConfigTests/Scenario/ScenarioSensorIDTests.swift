@testable import SensorConfig
@testable import SensorCore
@testable import SensorSimulation
import SensorTestKit
import Testing

/// SPEC §9 as changed for recordings (§15): an id holding a `:` is a sensor id as it
/// stands, and one sensor's sample times strictly increase.
struct ScenarioSensorIDTests {
    private func errors(_ text: String) -> [String] { TemporaryDirectory.scenarioErrors(of: text) }

    @Test func idWithAColonIsTheSensorIDAsItStandsOthersGetSimPrefix() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "s.json5",
            """
            { sensors: [
                { id: "thermal:thermal_zone0", quantity: "temperature", label: "x86_pkg_temp", samples: [[0, 47]] },
                { id: "iio:iio:device0/temp", quantity: "temperature", samples: [[0, 21]] },
                { id: "hwmon:sht3x.1/humidity1", quantity: "humidity", samples: [[0, 40]] },
                { id: "cpu", quantity: "temperature", samples: [[0, 50]] },
            ] }
            """)
        let scenario = try ScenarioLoader.load(path: path)
        #expect(
            scenario.sensors.map(\.info.id.rawValue) == [
                "thermal:thermal_zone0", "iio:iio:device0/temp", "hwmon:sht3x.1/humidity1", "sim:cpu",
            ])
        #expect(
            scenario.sensors[0].info
                == SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature))
        #expect(
            SimulatedReader(scenario: scenario, loop: false).discover().map(\.id.rawValue) == [
                "hwmon:sht3x.1/humidity1", "iio:iio:device0/temp", "sim:cpu", "thermal:thermal_zone0",
            ])
    }

    @Test(arguments: [
        (
            "{ sensors: [{ id: \":zone0\", quantity: \"temperature\", samples: [] }] }",
            "sensors[0].id: sensor id \":zone0\" needs a source and a name around \":\" (as in \"thermal:thermal_zone0\")"
        ),
        (
            "{ sensors: [{ id: \"thermal:\", quantity: \"temperature\", samples: [] }] }",
            "sensors[0].id: sensor id \"thermal:\" needs a source and a name around \":\" (as in \"thermal:thermal_zone0\")"
        ),
        (
            "{ sensors: [{ id: \"thermal:zone 0\", quantity: \"temperature\", samples: [] }] }",
            "sensors[0].id: sensor id \"thermal:zone 0\" must not hold spaces or control characters"
        ),
        (
            "{ sensors: [{ id: \"thermal:a\\tb\", quantity: \"temperature\", samples: [] }] }",
            "sensors[0].id: sensor id \"thermal:a\\tb\" must not hold spaces or control characters"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[0, 1]] }, { id: \"sim:cpu\", quantity: \"temperature\", samples: [[0, 2]] }] }",
            "sensors[1].id: duplicate sensor id \"sim:cpu\" (first used by sensors[0])"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[0, 1], [1, 2], [1, 3]] }] }",
            "sensors[0].samples[2][0]: time 1.0 is the same as the previous sample's; one sensor's sample times must strictly increase"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[0, 1], [0, null]] }] }",
            "sensors[0].samples[1][0]: time 0.0 is the same as the previous sample's; one sensor's sample times must strictly increase"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", samples: [[2, 1], [2.0000000001, 2]] }] }",
            "sensors[0].samples[1][0]: time 2.0000000001 is the same as the previous sample's; one sensor's sample times must strictly increase"
        ),
    ])
    func refusesBadIDsAndRepeatedTimesAtTheirKeyPath(text: String, expected: String) {
        #expect(errors(text) == ["s.json5: " + expected])
    }

    @Test func csvRowsMustStrictlyIncreaseToo() {
        let files = TemporaryDirectory()
        files.write("baro.csv", "time,value\n0,1\n1.5,2\n1.50,3\n")
        files.write("s.json5", "{ sensors: [{ id: \"baro\", quantity: \"pressure\", csv: \"baro.csv\" }] }")
        #expect(
            files.scenarioErrors("s.json5") == [
                "baro.csv: line 4, column 1: time 1.50 is the same as the previous row's; one sensor's sample times must strictly increase"
            ])
    }

    @Test func twoSimulatedSourcesMayNotGiveOneSensorIDEvenSpelledDifferently() {
        let files = TemporaryDirectory()
        files.write(
            "a.json5", "{ sensors: [{ id: \"thermal:thermal_zone0\", quantity: \"temperature\", samples: [[0, 1]] }] }")
        files.write(
            "b.json5", "{ sensors: [{ id: \"thermal:thermal_zone0\", quantity: \"temperature\", samples: [[0, 1]] }] }")
        files.write(
            "c.json5",
            """
            { sources: [{ type: "simulated", scenario: "a.json5" }, { type: "simulated", scenario: "b.json5" }], rules: [] }
            """)
        #expect(
            files.configErrors("c.json5") == [
                "c.json5: sources[1].scenario: simulated sensor \"thermal:thermal_zone0\" is already defined by sources[0]"
            ])
    }
}
