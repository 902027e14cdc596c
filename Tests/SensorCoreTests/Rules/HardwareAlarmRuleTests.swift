@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// The chips' own alarms in rules (SPEC §16b), through `simulate`'s engine: a scenario's
/// `alarms` are the latched alarm files seen with a reading.
@DaemonActor
struct HardwareAlarmRuleTests {
    static let scenario = """
        { duration: "10s", step: "1s", sensors: [
          { id: "cpu", quantity: "temperature", limits: { crit: 100, crit_hyst: 95 },
            series: "50 50 50 97 96 94 50 50 50 50 50",
            alarms: [[1, "crit"], [3, "crit"], [5.5, "alarm"], [6, "max"], [7, "alarm"], [8, "alarm"]] },
        ] }
        """

    static func lines(_ rules: String) async throws -> [String] {
        let dir = TemporaryDirectory()
        dir.write("scenario.json5", scenario)
        dir.write(
            "config.json5", "{ sources: [ { type: \"simulated\", scenario: \"scenario.json5\" } ], rules: \(rules) }")
        let configuration = try ConfigLoader.load(path: dir.root + "/config.json5")
        let events = await Simulator.run(
            scenarios: configuration.sources.compactMap(\.scenario), rules: configuration.rules)
        return events.map { EventFormatter.line($0) + " " + EventFormatter.json($0) }
    }

    /// A latched `crit_alarm` below `crit` fires the crit rule, `(hardware alarm)`, and it
    /// resolves once the value is under the clear point (95) and the alarm reads 0; an alarm
    /// of another limit (`max`, `alarm`) does not fire it.
    @Test func aLatchedCritAlarmBelowCritFiresTheLimitRule() async throws {
        let out = try await Self.lines(
            #"[ { name: "too-hot", quantity: "temperature", above: "crit", severity: "critical" } ]"#)
        #expect(
            out == [
                #"t=1s critical too-hot firing: sim:cpu 50 °C above 100 °C (crit) (hardware alarm) {"time":1.0,"event":"firing","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":50,"threshold":100,"limit":"crit","alarm":true}"#,
                #"t=2s notice too-hot resolved: sim:cpu 50 °C, no longer above 100 °C (crit) {"time":2.0,"event":"resolved","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":50,"threshold":100,"limit":"crit"}"#,
                #"t=3s critical too-hot firing: sim:cpu 97 °C above 100 °C (crit) (hardware alarm) {"time":3.0,"event":"firing","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":97,"threshold":100,"limit":"crit","alarm":true}"#,
                // 96 °C with the alarm cleared: still above the clear point, still firing.
                #"t=5s notice too-hot resolved: sim:cpu 94 °C, no longer above 100 °C (crit) {"time":5.0,"event":"resolved","rule":"too-hot","sensor":"sim:cpu","severity":"critical","value":94,"threshold":100,"limit":"crit"}"#,
            ])
    }

    /// `alarm: true` fires while any alarm file reads 1, names which in `limit` (a limit's
    /// before the plain `alarm`), and `for` applies.
    @Test func anAlarmRuleFiresWhileAnyAlarmReadsOne() async throws {
        let out = try await Self.lines(
            #"[ { name: "hw-alarm", alarm: true }, { name: "slow", sensor: "sim:*", alarm: true, for: "2s" } ]"#)
        #expect(
            out.map { $0.prefix { $0 != "{" } } == [
                "t=1s warning hw-alarm firing: sim:cpu 50 °C in hardware alarm (crit) ",
                "t=2s notice hw-alarm resolved: sim:cpu 50 °C, no longer in hardware alarm (crit) ",
                "t=3s warning hw-alarm firing: sim:cpu 97 °C in hardware alarm (crit) ",
                "t=4s notice hw-alarm resolved: sim:cpu 96 °C, no longer in hardware alarm (crit) ",
                // 5.5 s's plain alarm is seen with the reading at 6 s, with max's.
                "t=6s warning hw-alarm firing: sim:cpu 50 °C in hardware alarm (max) ",
                "t=8s warning slow firing: sim:cpu 50 °C in hardware alarm (alarm) ",
                "t=9s notice hw-alarm resolved: sim:cpu 50 °C, no longer in hardware alarm (alarm) ",
                "t=9s notice slow resolved: sim:cpu 50 °C, no longer in hardware alarm (alarm) ",
            ])
        #expect(out[0].hasSuffix(#""value":50,"threshold":1,"limit":"crit"}"#))
    }

    /// An alarm due at a failed read waits for the next successful reading.
    @Test func anAlarmAtAFailedReadIsSeenWithTheNextReading() async throws {
        let dir = TemporaryDirectory()
        dir.write(
            "s.json5",
            #"{ duration: "3s", step: "1s", sensors: [ { id: "x", quantity: "fan", series: "900 _ 900 900", alarms: [[1, "min"]] } ] }"#
        )
        dir.write(
            "c.json5",
            #"{ sources: [ { type: "simulated", scenario: "s.json5" } ], rules: [ { name: "a", alarm: true } ] }"#)
        let configuration = try ConfigLoader.load(path: dir.root + "/c.json5")
        let events = await Simulator.run(
            scenarios: configuration.sources.compactMap(\.scenario), rules: configuration.rules)
        #expect(
            events.map { "\($0.time.seconds) \($0.kind.rawValue) \($0.limit ?? "-")" } == [
                "2.0 firing min", "3.0 resolved min",
            ])
    }

    @Test(arguments: [
        (
            #"{ rules: [{ name: "a", alarm: false }] }"#,
            "rules[0].alarm: must be true (leave the rule out to not watch the alarms)"
        ),
        (#"{ rules: [{ name: "a", alarm: 1 }] }"#, "rules[0].alarm: expected true or false, found a number"),
        (
            #"{ rules: [{ name: "a", alarm: true, above: 3 }] }"#,
            "rules[0]: has more than one condition (above, alarm); a rule takes exactly one"
        ),
    ])
    func badAlarmRulesAreRefused(text: String, expected: String) {
        #expect(TemporaryDirectory.configErrors(of: text) == ["c.json5: " + expected])
    }

    @Test func aScenarioAlarmMustBeKnown() {
        let dir = TemporaryDirectory()
        dir.write(
            "s.json5",
            #"{ duration: "3s", step: "1s", sensors: [ { id: "x", quantity: "fan", series: "900", alarms: [[1, "hot2"], [2]] } ] }"#
        )
        #expect(
            dir.scenarioErrors("s.json5") == [
                #"s.json5: sensors[0].alarms[0][1]: unknown alarm "hot2" (expected alarm, min, lcrit, max, crit, emergency, hot, passive, active, cap)"#,
                #"s.json5: sensors[0].alarms[1]: expected [time, "crit"], found an array of 1"#,
            ])
    }
}
