@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// `simulate` end to end (files → loader → SensorData → tracking loop → engine → JSON) on
/// scenarios whose events are worked out by hand from SPEC §5, §6 and §9.
@DaemonActor
struct SimulatorSpecTests {
    /// Runs `rules` (JSON5 array text) over `scenario` (JSON5 text); returns the JSON lines.
    static func simulate(rules: String, scenario: String) async throws -> [String] {
        let dir = TemporaryDirectory()
        dir.write("scenario.json5", scenario)
        dir.write(
            "config.json5", "{ sources: [ { type: \"simulated\", scenario: \"scenario.json5\" } ], rules: \(rules) }")
        let configuration = try ConfigLoader.load(path: dir.root + "/config.json5")
        let events = await Simulator.run(
            scenarios: configuration.sources.compactMap(\.scenario), rules: configuration.rules)
        return events.map(EventFormatter.json)
    }

    nonisolated static func line(
        _ t: String, _ event: String, _ rule: String, _ sensor: String, _ value: String, _ threshold: String,
        severity: String = "warning"
    ) -> String {
        "{\"time\":\(t),\"event\":\"\(event)\",\"rule\":\"\(rule)\",\"sensor\":\"\(sensor)\",\"severity\":\"\(severity)\",\"value\":\(value),\"threshold\":\(threshold)}"
    }

    @Test func samplesOfEachQuantityReachOnlyTheirOwnSensor() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "hot", sensor: "sim:*", above: 80 } ]"#,
            scenario: """
                { sensors: [
                  { id: "a", quantity: "temperature", samples: [[0, 50], [1, 90], [2, 50]] },
                  { id: "p", quantity: "pressure", samples: [[0, 1000], [1, 1000], [2, 1000]] },
                  { id: "h", quantity: "humidity", samples: [[0, 85], [1, 85], [2, 85]] },
                ] }
                """)
        #expect(
            out == [
                Self.line("0.0", "firing", "hot", "sim:h", "85", "80"),
                Self.line("0.0", "firing", "hot", "sim:p", "1000", "80"),
                Self.line("1.0", "firing", "hot", "sim:a", "90", "80"),
                Self.line("2.0", "resolved", "hot", "sim:a", "50", "80"),
            ])
    }

    @Test func rampWithForFiresOnTheSampleThatEndsTheWait() async throws {
        // v(t) = 70 + t until 20 s: first true sample 81 at 11 s, `for` 3 s ends at 14 s.
        let out = try await Self.simulate(
            rules: #"[ { name: "hot", sensor: "sim:cpu", above: 80, for: "3s" } ]"#,
            scenario:
                #"{ duration: "30s", step: "1s", sensors: [ { id: "cpu", quantity: "temperature", start: 70, segments: [ { ramp: 90, over: "20s" } ] } ] }"#
        )
        #expect(out == [Self.line("14.0", "firing", "hot", "sim:cpu", "84", "80")])
    }

    @Test func stepTakesNoTime() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "hot", sensor: "sim:x", above: 40 } ]"#,
            scenario:
                #"{ duration: "10s", step: "1s", sensors: [ { id: "x", quantity: "temperature", start: 20, segments: [ { hold: "5s" }, { step: 50 }, { hold: "2s" }, { step: 20 } ] } ] }"#
        )
        #expect(
            out == [
                Self.line("5.0", "firing", "hot", "sim:x", "50", "40"),
                Self.line("7.0", "resolved", "hot", "sim:x", "20", "40"),
            ])
    }

    @Test func staleFiresOnTicksAndCountsNeverReadSensorsFromTheStart() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "silent", sensor: "*", stale: "3s" } ]"#,
            scenario: """
                { duration: "10s", step: "1s", sensors: [
                  { id: "x", quantity: "temperature", samples: [[0, 1], [2, 1]] },
                  { id: "y", quantity: "temperature", samples: [[9, 5]] },
                ] }
                """)
        #expect(
            out == [
                Self.line("3.0", "firing", "silent", "sim:y", "null", "3"),
                Self.line("5.0", "firing", "silent", "sim:x", "null", "3"),
                Self.line("9.0", "resolved", "silent", "sim:y", "5", "3"),
            ])
    }

    @Test func dropoutMakesFailedReadsThatStaleSees() async throws {
        // Successes at 0 and 1, failed reads 2..5, the value back at 6.
        let out = try await Self.simulate(
            rules: #"[ { name: "silent", sensor: "sim:d", stale: "3s" } ]"#,
            scenario:
                #"{ duration: "8s", step: "1s", sensors: [ { id: "d", quantity: "humidity", start: 40, segments: [ { hold: "2s" }, { dropout: "4s" } ] } ] }"#
        )
        #expect(
            out == [
                Self.line("4.0", "firing", "silent", "sim:d", "null", "3"),
                Self.line("6.0", "resolved", "silent", "sim:d", "40", "3"),
            ])
    }

    @Test func tiesAtOneInstantSortByRuleOrderThenSensorId() async throws {
        let out = try await Self.simulate(
            rules:
                #"[ { name: "r1", sensor: "sim:*", above: 10, severity: "critical" }, { name: "r2", sensor: "sim:*", above: 5, severity: "info" } ]"#,
            scenario: """
                { sensors: [
                  { id: "b", quantity: "temperature", samples: [[0, 0], [1, 20]] },
                  { id: "a", quantity: "temperature", samples: [[0, 0], [1, 20]] },
                ] }
                """)
        #expect(
            out == [
                Self.line("1.0", "firing", "r1", "sim:a", "20", "10", severity: "critical"),
                Self.line("1.0", "firing", "r1", "sim:b", "20", "10", severity: "critical"),
                Self.line("1.0", "firing", "r2", "sim:a", "20", "5", severity: "info"),
                Self.line("1.0", "firing", "r2", "sim:b", "20", "5", severity: "info"),
            ])
    }

    @Test func riseWindowIncludesTheSampleExactlyWAgo() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "heating", sensor: "sim:r", rise: { by: 10, within: "5s" } } ]"#,
            scenario:
                #"{ sensors: [ { id: "r", quantity: "temperature", samples: [[0, 10], [0.5, 12], [5, 20], [5.5, 21]] } ] }"#
        )
        #expect(
            out == [
                Self.line("5.0", "firing", "heating", "sim:r", "20", "10"),
                Self.line("5.5", "resolved", "heating", "sim:r", "21", "10"),
            ])
    }

    @Test func subSecondStepsCompareExactly() async throws {
        // 0.1 s * 3 is not 0.3 in floating point; in run time it is.
        let out = try await Self.simulate(
            rules: #"[ { name: "hot", sensor: "sim:f", above: 80, for: "300ms" } ]"#,
            scenario:
                #"{ duration: "1s", step: "100ms", sensors: [ { id: "f", quantity: "temperature", start: 85, segments: [] } ] }"#
        )
        #expect(out == [Self.line("0.3", "firing", "hot", "sim:f", "85", "80")])
    }

    @Test func clearForAndRepeat() async throws {
        let out = try await Self.simulate(
            rules: #"[ { name: "hot", sensor: "sim:c", above: 80, clearFor: "3s", repeat: "2s" } ]"#,
            scenario:
                #"{ sensors: [ { id: "c", quantity: "temperature", samples: [[0, 90], [1, 90], [2, 90], [3, 70], [4, 90], [5, 70], [6, 70], [7, 70], [8, 70]] } ] }"#
        )
        #expect(
            out == [
                Self.line("0.0", "firing", "hot", "sim:c", "90", "80"),
                Self.line("2.0", "repeat", "hot", "sim:c", "90", "80"),
                Self.line("4.0", "repeat", "hot", "sim:c", "90", "80"),
                Self.line("6.0", "repeat", "hot", "sim:c", "70", "80"),
                Self.line("8.0", "resolved", "hot", "sim:c", "70", "80"),
            ])
    }

    @Test func sameScenarioAndSeedGiveTheSameEvents() async throws {
        let rules = #"[ { name: "hot", sensor: "sim:*", above: 60, hysteresis: 1 } ]"#
        let scenario =
            #"{ duration: "60s", step: "1s", seed: 7, sensors: [ { id: "n", quantity: "temperature", start: 60, noise: 2, segments: [] } ] }"#
        let first = try await Self.simulate(rules: rules, scenario: scenario)
        let second = try await Self.simulate(rules: rules, scenario: scenario)
        #expect(first == second)
        #expect(!first.isEmpty)
    }
}
