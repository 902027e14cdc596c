@testable import SensorCore
@testable import SensorRuntime
import Testing

/// Rules that select no sensor, and why (issue 34): the warning `check` prints and `run`
/// logs, with the ids a typo most likely meant.
struct RuleSelectionTests {
    static let sensors = [
        SensorInfo(id: "sim:cpu", quantity: .temperature, limits: SensorLimits(values: ["max": 80])),
        SensorInfo(id: "sim:gpu", quantity: .temperature),
        SensorInfo(id: "hwmon:nct6775-isa-0290/fan1", quantity: .fan, limits: SensorLimits(values: ["min": 1500])),
    ]

    static func rule(
        _ name: String, sensor: String? = nil, quantity: Quantity? = nil, limit: String? = nil
    ) throws -> Rule {
        var rule = Rule(
            name: name, selector: SensorSelector(sensor: try sensor.map { try Glob($0) }, quantity: quantity),
            condition: .above(80, hysteresis: 0))
        if let limit { rule.limit = RuleLimit(name: limit) }
        return rule
    }

    @Test func eachRuleThatSelectsNothingSaysWhy() throws {
        let rules = [
            try Self.rule("ok", sensor: "sim:*"),
            try Self.rule("typo", sensor: "sim:cpuu"),
            try Self.rule("far", sensor: "usb:thermometer"),
            try Self.rule("dry", quantity: .humidity),
            try Self.rule("fan-hot", sensor: "sim:*", quantity: .fan),
            try Self.rule("crit", sensor: "sim:*", limit: "crit"),
            try Self.rule("fan-min", quantity: .fan, limit: "min"),
        ]
        #expect(
            RuleSelection.unselected(rules, sensors: Self.sensors).map { "\($0.index) \($0.message)" } == [
                #"1 rule "typo" selects no sensor of this machine: sensor "sim:cpuu" matches no sensor id (did you mean "sim:cpu" or "sim:gpu"?)"#,
                #"2 rule "far" selects no sensor of this machine: sensor "usb:thermometer" matches no sensor id (no id is close to it; `sensorwatch sensors` lists them)"#,
                #"3 rule "dry" selects no sensor of this machine: there is no humidity sensor"#,
                #"4 rule "fan-hot" selects no sensor of this machine: there is no fan sensor among those "sim:*" matches"#,
                #"5 rule "crit" selects no sensor of this machine: no sensor it matches has the limit "crit", and the rule has no `otherwise`"#,
            ])
    }

    /// The one "did you mean" of the project: config keys, options and ids alike.
    @Test func nearestNamesAreTyposNotStrangers() {
        #expect(NearestNames.closest(to: "confg", in: ["config", "json", "help"]) == "config")
        #expect(NearestNames.closest(to: "verbose", in: ["config", "json", "help"]) == nil)
        #expect(
            NearestNames.nearest(to: "SIM:CPUU", in: ["sim:gpu", "sim:cpu", "sim:room"], count: 3) == [
                "sim:cpu", "sim:gpu",
            ])
    }
}
