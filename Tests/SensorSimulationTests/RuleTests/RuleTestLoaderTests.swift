@testable import SensorCore
@testable import SensorSimulation
import SensorTestKit
import Testing
@testable import SensorRuntime
@testable import SensorConfig
/// Reading rule-test files (SPEC §18): what a test file holds, and every way it can be bad.
struct RuleTestLoaderTests {
    static let config = "{ rules: [ { name: \"hot\", sensor: \"sim:*\", above: 80 } ] }"
    static let spike =
        "{ duration: \"10s\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"50 90 50x8\" }] }"

    private func errors(_ text: String, files: [String: String] = [:]) -> [String] {
        let dir = TemporaryDirectory()
        dir.write(["c.json5": Self.config].merging(files) { $1 })
        dir.write("t.json5", text)
        do {
            _ = try RuleTestLoader.load(path: dir.path("t.json5"))
            return []
        } catch {
            return dir.lines(error)
        }
    }

    private func test(_ body: String) -> String {
        "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: \(Self.spike), \(body) } ] }"
    }

    @Test func loadsInlineAndFileScenariosWithEventsAndFiringSets() throws {
        let dir = TemporaryDirectory()
        dir.write("conf/c.json5", Self.config)
        dir.write("tests/s.json5", Self.spike)
        dir.write(
            "tests/t.json5",
            """
            { config: "../conf/c.json5", tests: [
              { name: "from a file", scenario: "s.json5",
                events: [ { time: 1, event: "firing", rule: "hot", sensor: "sim:cpu", severity: "warning", value: 90,
                            threshold: 80, predicted: null, limit: null },
                          { time: "2s", event: "resolved", rule: "hot", sensor: "sim:cpu" } ] },
              { name: "inline", scenario: \(Self.spike), firing: [ { at: "1s", alerts: [ { rule: "hot", sensor: "sim:cpu" } ] } ] },
            ] }
            """)
        let file = try RuleTestLoader.load(path: dir.path("tests/t.json5"))
        #expect(file.configuration.rules.map(\.name) == ["hot"])
        #expect(file.tests.map(\.name) == ["from a file", "inline"])
        #expect(file.tests[0].scenario == file.tests[1].scenario)
        #expect(
            file.tests[0].events == [
                ExpectedEvent(
                    time: 1, kind: .firing, rule: "hot", sensor: "sim:cpu", severity: .warning, value: 90,
                    threshold: 80, predicted: .some(nil), limit: .some(nil)),
                ExpectedEvent(time: 2, kind: .resolved, rule: "hot", sensor: "sim:cpu"),
            ])
        #expect(file.tests[1].events == nil)
        #expect(
            file.tests[1].firing == [FiringCheck(at: .seconds(1), alerts: [AlertKey(rule: "hot", sensor: "sim:cpu")])])
    }

    @Test(arguments: [
        (
            "{ tests: [] }",
            ["t.json5: config: required key is missing", "t.json5: tests: a test file needs at least one test"]
        ),
        ("{ config: \"c.json5\" }", ["t.json5: tests: required key is missing"]),
        (
            "{ config: \"c.json5\", tests: [], test: 1 }",
            [
                "t.json5: test: unknown key (did you mean \"tests\"?)",
                "t.json5: tests: a test file needs at least one test",
            ]
        ),
        ("{ config: \"c.json5\", tests: {} }", ["t.json5: tests: expected an array, found an object"]),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: \(spike) } ] }",
            ["t.json5: tests[0]: a test needs events, firing, or both (what the scenario must give)"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { scenario: \(spike), events: [] } ] }",
            ["t.json5: tests[0].name: required key is missing"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"  \", scenario: \(spike), events: [] } ] }",
            ["t.json5: tests[0].name: must not be empty"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", events: [] } ] }",
            ["t.json5: tests[0].scenario: required key is missing"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: 3, events: [] } ] }",
            ["t.json5: tests[0].scenario: expected a scenario file's name or a scenario object, found a number"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: \(spike), events: [] }, { name: \"a\", scenario: \(spike), events: [] } ] }",
            ["t.json5: tests[1].name: duplicate test name \"a\" (first used by tests[0])"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: { sensors: [] }, events: [] } ] }",
            ["t.json5: tests[0].scenario.sensors: a scenario needs at least one sensor"]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: { sensors: [{ id: \"cpu\", quantity: \"temperature\", start: 1 }] }, events: [] } ] }",
            [
                "t.json5: tests[0].scenario.duration: required key is missing (a sensor is generated from start and segments)"
            ]
        ),
        (
            "{ config: \"c.json5\", tests: [ { name: \"a\", scenario: { duration: \"2s\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"1x5\" }] }, events: [] } ] }",
            [
                "t.json5: tests[0].scenario.sensors[0].series: gives 6 samples, but 0 to 2s at every 1s holds 3 (a term axn is n + 1 samples); its last sample would come after the duration"
            ]
        ),
    ])
    func reportsEveryProblemOfTheTestFileAtItsKey(_ text: String, _ lines: [String]) {
        #expect(errors(text) == lines)
    }

    @Test(arguments: [
        (
            "events: [ {} ]",
            [
                "t.json5: tests[0].events[0].time: required key is missing",
                "t.json5: tests[0].events[0].event: required key is missing",
                "t.json5: tests[0].events[0].rule: required key is missing",
                "t.json5: tests[0].events[0].sensor: required key is missing",
            ]
        ),
        (
            "events: [ { time: 1, event: \"fired\", rule: \"hot\", sensor: \"sim:cpu\" } ]",
            ["t.json5: tests[0].events[0].event: unknown event \"fired\" (expected firing, resolved or repeat)"]
        ),
        (
            "events: [ { time: 1, event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\", severity: \"high\" } ]",
            [
                "t.json5: tests[0].events[0].severity: unknown severity \"high\" (expected critical, warning, notice or info)"
            ]
        ),
        (
            "events: [ { time: -1, event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\" } ]",
            ["t.json5: tests[0].events[0].time: must be 0 or more"]
        ),
        (
            "events: [ { time: \"soon\", event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\" } ]",
            ["t.json5: tests[0].events[0].time: invalid duration \"soon\": expected a number, found \"s\""]
        ),
        (
            "events: [ { time: 1, event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\", value: \"90\" } ]",
            ["t.json5: tests[0].events[0].value: expected a number, found a string"]
        ),
        (
            "events: [ { time: 1, event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\", threshold: null } ]",
            ["t.json5: tests[0].events[0].threshold: expected a number, found null"]
        ),
        (
            "events: [ { time: 1, event: \"firing\", rule: \"hot\", sensor: \"sim:cpu\", when: 1 } ]",
            ["t.json5: tests[0].events[0].when: unknown key"]
        ),
        ("events: {}", ["t.json5: tests[0].events: expected an array, found an object"]),
        ("firing: [ { alerts: [] } ]", ["t.json5: tests[0].firing[0].at: required key is missing"]),
        (
            "firing: [ { at: 40, alerts: [] } ]",
            ["t.json5: tests[0].firing[0].at: expected a duration such as \"10s\", found a number"]
        ),
        ("firing: [ { at: \"4s\" } ]", ["t.json5: tests[0].firing[0].alerts: required key is missing"]),
        (
            "firing: [ { at: \"4s\", alerts: [ { rule: \"hot\" } ] } ]",
            ["t.json5: tests[0].firing[0].alerts[0].sensor: required key is missing"]
        ),
        (
            "firing: [ { at: \"4s\", alerts: [ \"hot\" ] } ]",
            ["t.json5: tests[0].firing[0].alerts[0]: expected an object, found a string"]
        ),
    ])
    func reportsEveryProblemOfAnExpectation(_ body: String, _ lines: [String]) {
        #expect(errors(test(body)) == lines)
    }

    @Test func aMissingConfigOrScenarioFileIsReportedWhereItIsNamed() {
        let lines = errors(
            "{ config: \"nope.json5\", tests: [ { name: \"a\", scenario: \"gone.json5\", events: [] } ] }")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("t.json5: config: cannot read \"nope.json5\" ("))
        #expect(lines[0].hasSuffix("nope.json5): No such file or directory"))
        #expect(lines[1].hasPrefix("t.json5: tests[0].scenario: cannot read \"gone.json5\" ("))
    }

    @Test func problemsInsideTheConfigAndScenarioFilesAreReportedAgainstThoseFiles() {
        let lines = errors(
            "{ config: \"bad.json5\", tests: [ { name: \"a\", scenario: \"s.json5\", events: [] } ] }",
            files: ["bad.json5": "{ rules: [ { name: \"x\" } ] }", "s.json5": "{ sensors: [] }"])
        #expect(
            lines == [
                "bad.json5: rules[0]: needs \"sensor\" or \"quantity\" (or both) to select sensors",
                "bad.json5: rules[0]: needs one condition: above, below, rise, fall, predict, stale or alarm",
                "s.json5: sensors: a scenario needs at least one sensor",
            ])
    }

    @Test func aSyntaxErrorNamesLineAndColumn() {
        #expect(
            errors("{ config: \"c.json5\", tests: [ }") == ["t.json5: line 1, column 31: expected a value, found \"}\""]
        )
    }
}
