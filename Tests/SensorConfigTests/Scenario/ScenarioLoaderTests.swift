@testable import SensorConfig
import SensorTestKit
import Testing
@testable import SensorCore
@testable import SensorRuntime
struct ScenarioLoaderTests {
    private func errors(_ text: String) -> [String] { TemporaryDirectory.scenarioErrors(of: text) }

    private static let cpu = "id: \"cpu\", quantity: \"temperature\""

    @Test(arguments: [
        ("{ sensors: [] }", "sensors: a scenario needs at least one sensor"),
        ("{ duration: \"1m\" }", "sensors: required key is missing"),
        (
            "{ sensors: [{ \(cpu), start: 1 }] }",
            "duration: required key is missing (a sensor is generated from start and segments)"
        ),
        ("{ duration: \"1m\", step: \"0s\", sensors: [{ \(cpu), start: 1 }] }", "step: must be longer than 0s"),
        ("{ duration: \"0s\", sensors: [{ \(cpu), start: 1 }] }", "duration: must be longer than 0s"),
        ("{ seed: -1, sensors: [{ \(cpu), samples: [] }] }", "seed: must be 0 or more"),
        ("{ seed: 1.5, sensors: [{ \(cpu), samples: [] }] }", "seed: expected a whole number, found 1.5"),
        ("{ loop: \"yes\", sensors: [{ \(cpu), samples: [] }] }", "loop: expected true or false, found a string"),
        ("{ sensor: [], sensors: [{ \(cpu), samples: [] }] }", "sensor: unknown key (did you mean \"sensors\"?)"),
        ("{ sensors: [{ quantity: \"humidity\", samples: [] }] }", "sensors[0].id: required key is missing"),
        (
            "{ sensors: [{ id: \"my cpu\", quantity: \"humidity\", samples: [] }] }",
            "sensors[0].id: sensor id \"my cpu\" may use only letters, digits, \"_\", \"-\", \".\" and \"/\""
        ),
        ("{ sensors: [{ id: \"\", quantity: \"humidity\", samples: [] }] }", "sensors[0].id: must not be empty"),
        ("{ sensors: [{ id: \"cpu\", samples: [] }] }", "sensors[0].quantity: required key is missing"),
        ("{ sensors: [{ \(cpu), label: 3, samples: [] }] }", "sensors[0].label: expected a string, found a number"),
        (
            "{ sensors: [{ \(cpu) }] }",
            "sensors[0]: needs samples, csv, series, or start (with segments) to give it values"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), samples: [], start: 3 }] }",
            "sensors[0]: has more than one source of values (samples, start); give exactly one"
        ),
        (
            "{ sensors: [{ \(cpu), samples: [[0, 1]] }, { \(cpu), samples: [[0, 2]] }] }",
            "sensors[1].id: duplicate sensor id \"cpu\" (first used by sensors[0])"
        ),
        (
            "{ sensors: [{ \(cpu), samples: [[0, 1, 2]] }] }",
            "sensors[0].samples[0]: expected [time, value], found an array of 3"
        ),
        ("{ sensors: [{ \(cpu), samples: [5] }] }", "sensors[0].samples[0]: expected [time, value], found a number"),
        (
            "{ sensors: [{ \(cpu), samples: [[0, 1], [2, 1], [1, 1]] }] }",
            "sensors[0].samples[2][0]: time 1.0 is before the previous sample's 2.0"
        ),
        ("{ sensors: [{ \(cpu), samples: [[-1, 1]] }] }", "sensors[0].samples[0][0]: must be 0 or more"),
        (
            "{ sensors: [{ \(cpu), samples: [[0, NaN]] }] }",
            "sensors[0].samples[0][1]: expected a finite number, found NaN"
        ),
        (
            "{ sensors: [{ \(cpu), samples: [[Infinity, 1]] }] }",
            "sensors[0].samples[0][0]: expected a finite number, found Infinity"
        ),
        (
            "{ sensors: [{ \(cpu), samples: [[0, \"1\"]] }] }",
            "sensors[0].samples[0][1]: expected a number, found a string"
        ),
        (
            "{ duration: \"4s\", sensors: [{ \(cpu), samples: [[0, 1], [5, 1]] }] }",
            "sensors[0].samples: sample at 5.0s is after the scenario's duration (4s)"
        ),
        ("{ duration: \"1m\", sensors: [{ \(cpu), segments: [] }] }", "sensors[0].start: required key is missing"),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: \"x\" }] }",
            "sensors[0].start: expected a number, found a string"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: -Infinity }] }",
            "sensors[0].start: expected a finite number, found -Infinity"
        ),
        ("{ duration: \"1m\", sensors: [{ \(cpu), start: 1, noise: -1 }] }", "sensors[0].noise: must be 0 or more"),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, noise: NaN }] }",
            "sensors[0].noise: expected a finite number, found NaN"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: {} }] }",
            "sensors[0].segments: expected an array, found an object"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ hold: \"1s\" }, { jump: 3 }] }] }",
            "sensors[0].segments[1]: unknown segment {jump} (expected ramp, hold, step, sine or dropout)"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [\"hold\"] }] }",
            "sensors[0].segments[0]: expected a segment object such as {hold: \"1m\"}, found a string"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ ramp: 3, hold: \"1s\" }] }] }",
            "sensors[0].segments[0]: has more than one segment kind (ramp, hold); give exactly one"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ ramp: 3 }] }] }",
            "sensors[0].segments[0].over: required key is missing"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ ramp: NaN, over: \"1s\" }] }] }",
            "sensors[0].segments[0].ramp: expected a finite number, found NaN"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ ramp: 3, over: \"0s\" }] }] }",
            "sensors[0].segments[0].over: must be longer than 0s"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ hold: \"1s\", for: \"2s\" }] }] }",
            "sensors[0].segments[0].for: unknown key"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ step: Infinity }] }] }",
            "sensors[0].segments[0].step: expected a finite number, found Infinity"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ sine: 2, over: \"1m\" }] }] }",
            "sensors[0].segments[0].period: required key is missing"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ sine: 2, period: \"0s\", over: \"1m\" }] }] }",
            "sensors[0].segments[0].period: must be longer than 0s"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ dropout: 5 }] }] }",
            "sensors[0].segments[0].dropout: expected a duration such as \"10s\", found a number"
        ),
        (
            "{ duration: \"1m\", sensors: [{ \(cpu), start: 1, segments: [{ dropout: \"0s\" }] }] }",
            "sensors[0].segments[0].dropout: must be longer than 0s"
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: String) {
        #expect(errors(text) == ["s.json5: " + expected])
    }

    @Test func reportsEverySegmentProblemNotJustTheFirst() {
        let text = """
            { duration: "1m", sensors: [
              { id: "a", quantity: "pressure", start: 1, segments: [{ ramp: 2 }, { wobble: 1 }, { hold: "x" }] },
              { id: "b b", quantity: "nope", samples: [] },
            ] }
            """
        #expect(
            errors(text) == [
                "s.json5: sensors[0].segments[0].over: required key is missing",
                "s.json5: sensors[0].segments[1]: unknown segment {wobble} (expected ramp, hold, step, sine or dropout)",
                "s.json5: sensors[0].segments[2].hold: invalid duration \"x\": expected a number, found \"x\"",
                "s.json5: sensors[1].id: sensor id \"b b\" may use only letters, digits, \"_\", \"-\", \".\" and \"/\"",
                "s.json5: sensors[1].quantity: unknown quantity \"nope\" (expected temperature, humidity, pressure, fan, voltage, power, current or state)",
            ])
    }

    @Test func decodesEveryKindOfFeed() throws {
        let files = TemporaryDirectory()
        files.write("data/baro.csv", "time,value\n0,1013\n1.5,1012.5\n")
        let path = files.write(
            "s.json5",
            """
            {
              duration: "10m", step: "500ms", seed: 42, loop: false,
              sensors: [
                { id: "cpu", quantity: "temperature", label: "CPU package", start: 45, noise: 0.5,
                  segments: [ { ramp: 90, over: "2m" }, { hold: "1m" }, { step: 50 },
                              { sine: 3, period: "10s", over: "1m" }, { dropout: "5s" } ] },
                { id: "room", quantity: "humidity", samples: [[0, 40], [1, 38.5], [2, null], [3, 37]] },
                { id: "baro", quantity: "pressure", csv: "data/baro.csv" },
              ],
            }
            """)
        let scenario = try ScenarioLoader.load(path: path)
        #expect(
            scenario
                == Scenario(
                    duration: .seconds(600), step: .milliseconds(500), seed: 42, loop: false,
                    sensors: [
                        ScenarioSensor(
                            id: "cpu", quantity: .temperature, label: "CPU package",
                            feed: .generated(
                                start: 45,
                                segments: [
                                    .ramp(to: 90, over: .seconds(120)), .hold(.seconds(60)), .step(to: 50),
                                    .sine(amplitude: 3, period: .seconds(10), over: .seconds(60)),
                                    .dropout(.seconds(5)),
                                ], noise: 0.5)),
                        ScenarioSensor(
                            id: "room", quantity: .humidity,
                            feed: .samples([
                                TimedValue(time: .zero, value: 40), TimedValue(time: .seconds(1), value: 38.5),
                                TimedValue(time: .seconds(2), value: nil), TimedValue(time: .seconds(3), value: 37),
                            ])),
                        ScenarioSensor(
                            id: "baro", quantity: .pressure,
                            feed: .samples([
                                TimedValue(time: .zero, value: 1013), TimedValue(time: .seconds(1.5), value: 1012.5),
                            ])),
                    ]))
    }

    @Test func durationDefaultsToTheLastExplicitSampleTime() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "s.json5",
            """
            { sensors: [ { id: "a", quantity: "humidity", samples: [[0, 1], [7.5, 2]] },
                         { id: "b", quantity: "humidity", samples: [[3, 1]] } ] }
            """)
        let scenario = try ScenarioLoader.load(path: path)
        #expect(scenario.duration == .milliseconds(7500))
        #expect(scenario.step == .seconds(1))
        #expect(scenario.seed == 0)
        #expect(scenario.loop)
    }
}
