@testable import SensorConfig
@testable import SensorCore
import SensorTestKit
import Testing
@testable import SensorRuntime
@testable import SensorRuntime
/// Rules whose threshold is a limit of the sensor (SPEC §16), from the configuration's text
/// to the events, on tables of cases.
@Suite struct LimitRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var rule: String
        var limits: [String: Double]
        var values: [Double]
        /// `kind@t threshold limit`, the limit `-` for `null` and absent when the rule names none.
        var events: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "above crit clears at the driver's crit_hyst",
            rule: #"above: "crit""#, limits: ["crit": 100, "crit_hyst": 95], values: [99, 101, 97, 95],
            events: ["firing@1 100 crit", "resolved@3 100 crit"]),
        Case(
            name: "a rule's hysteresis, 0 included, wins over the driver's",
            rule: #"above: "crit", hysteresis: 0"#, limits: ["crit": 100, "crit_hyst": 95], values: [101, 99],
            events: ["firing@0 100 crit", "resolved@1 100 crit"]),
        Case(
            name: "a margin below the limit keeps the driver's clear distance",
            rule: #"above: { limit: "crit", margin: 10 }"#, limits: ["crit": 100, "crit_hyst": 95],
            values: [91, 86, 85],
            events: ["firing@0 90 crit", "resolved@2 90 crit"]),
        Case(
            name: "without the limit, otherwise is the threshold and the limit null",
            rule: #"above: { limit: "crit", otherwise: 80 }, hysteresis: 2"#, limits: ["max": 70],
            values: [81, 79, 78],
            events: ["firing@0 80 -", "resolved@2 80 -"]),
        Case(
            name: "with the limit, otherwise is not used",
            rule: #"above: { limit: "max", otherwise: 60 }"#, limits: ["max": 70], values: [65, 71],
            events: ["firing@1 70 max"]),
        Case(
            name: "a sensor without the limit and without otherwise is not selected",
            rule: #"above: "crit""#, limits: ["max": 70], values: [200, 300], events: []),
        Case(
            name: "below a lower limit clears at its hyst above it",
            rule: #"below: "min""#, limits: ["min": 10, "min_hyst": 12, "max": 60], values: [9, 11, 12],
            events: ["firing@0 10 min", "resolved@2 10 min"]),
        Case(
            name: "below with a margin lies above the limit",
            rule: #"below: { limit: "lcrit", margin: 5 }"#, limits: ["lcrit": -10], values: [-4, -6, -5],
            events: ["firing@1 -5 lcrit", "resolved@2 -5 lcrit"]),
        Case(
            name: "predict heads for the limit",
            rule: #"predict: { above: "crit", within: "10s", over: "2s" }"#, limits: ["crit": 100],
            values: [70, 75, 80, 85, 90, 95], events: ["firing@1 100 crit"]),
        Case(
            name: "predict with otherwise and no limit",
            rule: #"predict: { below: { limit: "min", otherwise: 0 }, within: "1s", over: "5s" }"#, limits: [:],
            values: [4, 2, 0.5], events: ["firing@2 0 -"]),
        Case(
            name: "a number is not a limit and has no limit key",
            rule: "above: 80", limits: ["crit": 100], values: [81], events: ["firing@0 80"]),
    ]

    static func rule(_ text: String) throws -> Rule {
        let files = TemporaryDirectory()
        files.write("c.json5", "{ rules: [{ name: \"r\", sensor: \"*\", \(text) }] }")
        return try #require(try ConfigLoader.load(path: files.path("c.json5")).rules.first)
    }

    @Test(arguments: cases) func limitRulesGiveTheirEvents(_ c: Case) throws {
        let sensor = SensorInfo(id: "sim:s", quantity: .temperature, limits: SensorLimits(values: c.limits))
        let list = SensorList(source: "sim", sensors: [sensor])
        var engine = RuleEngine(rules: [try Self.rule(c.rule)])
        var events: [AlertEvent] = []
        for (t, v) in c.values.enumerated() {
            engine.process(.reading(list, at: Double(t), [(sensor, v)]), into: &events)
        }
        #expect(
            events.map { e in
                "\(e.kind.rawValue)@\(NumberText.number(e.time.seconds)) \(NumberText.number(e.threshold))"
                    + (e.isLimitRule ? " " + (e.limit ?? "-") : "")
            } == c.events)
        var alerts = 0
        engine.forEachAlert { _, _, _ in alerts += 1 }
        #expect(alerts == (c.name.contains("not selected") ? 0 : 1))
    }

    @Test func aLimitThatChangesAtARediscoveryAppliesFromThenOnAndKeepsTheAlertsState() throws {
        var engine = RuleEngine(rules: [try Self.rule(#"above: "crit""#)])
        let before = SensorInfo(id: "sim:s", quantity: .temperature, limits: SensorLimits(values: ["crit": 100]))
        let after = SensorInfo(id: "sim:s", quantity: .temperature, limits: SensorLimits(values: ["crit": 90]))
        let gone = SensorInfo(id: "sim:s", quantity: .temperature)
        var events: [AlertEvent] = []
        engine.process(.reading(SensorList(source: "a", sensors: [before]), at: 0, [(before, 95)]), into: &events)
        let second = SensorList(source: "a", sensors: [after])
        engine.process(.reading(second, at: 1, [(after, 95)]), into: &events)
        engine.process(.reading(second, at: 2, [(after, 92)]), into: &events)
        engine.process(.reading(SensorList(source: "a", sensors: [gone]), at: 3, [(gone, 300)]), into: &events)
        #expect(events.map { "\($0.kind.rawValue)@\($0.time.seconds) \($0.threshold)" } == ["firing@1.0 90.0"])
        #expect(engine.firing.isEmpty)
    }

    @Test(arguments: [
        (
            #"above: "crits""#,
            "rules[0].above: unknown limit \"crits\" (expected a number, or max, crit, emergency, hot, passive, active or cap)"
        ),
        (#"below: "crit""#, "rules[0].below: \"crit\" is a limit above the values; above takes it"),
        (#"above: "min""#, "rules[0].above: \"min\" is a limit below the values; below takes it"),
        (#"above: { margin: 1 }"#, "rules[0].above.limit: required key is missing"),
        (#"above: { limit: "crit", margin: -1 }"#, "rules[0].above.margin: must be 0 or more"),
        (
            #"above: { limit: "crit", otherwize: 1 }"#,
            "rules[0].above.otherwize: unknown key (did you mean \"otherwise\"?)"
        ),
        (
            #"predict: { above: "lcrit", within: "1m", over: "1m" }"#,
            "rules[0].predict.above: \"lcrit\" is a limit below the values; below takes it"
        ),
    ]) func badLimitReferencesAreConfigurationErrors(_ text: String, _ expected: String) {
        #expect(
            TemporaryDirectory.configErrors(of: "{ rules: [{ name: \"r\", sensor: \"*\", \(text) }] }") == [
                "c.json5: " + expected
            ])
    }
}
