import SensorCore
import SensorLive
import SensorRuntime
import SensorSystemd
import Testing
@testable import SensorCLI

/// What Enter shows of a row in `top` (SPEC §22): its rules, limits and last transitions.
struct TopDetailsTests {
    let row = TopRow.rows(TopFixtures.state())[0]
    let time: (Double) -> String = { _ in "12:00:00" }

    @Test func theRowsRulesLimitsAlertsAndTransitions() throws {
        let rules = [
            Rule(
                name: "cpu-hot", selector: SensorSelector(sensor: try Glob("hwmon:coretemp*")),
                condition: .above(50, hysteresis: 0), severity: .critical),
            Rule(
                name: "fan-stopped", selector: SensorSelector(sensor: try Glob("hwmon:nct*")),
                condition: .above(0, hysteresis: 0)),
        ]
        let records = (0..<10).map {
            JournalAlertRecord(
                realtimeMicroseconds: UInt64(TopFixtures.t0 * 1e6) + UInt64($0),
                kind: $0 % 2 == 0 ? .firing : .resolved,
                rule: "cpu-hot", severity: .critical, sensor: row.id, value: 55, threshold: 50,
                message: "transition \($0)")
        }
        let lines = TopDetails.lines(row, rules: rules, history: .success(records), localTime: time)
        #expect(lines[0] == "Package id 0  hwmon:coretemp-isa-0000/temp1  (temperature)")
        #expect(lines.contains("limits   max 80, crit 100"))
        #expect(lines.contains("rules    cpu-hot (critical)"))
        #expect(lines.contains("alert    firing cpu-hot (critical) since 12:00:00, threshold 50"))
        #expect(lines.contains("last transitions (journal):"))
        #expect(lines.filter { $0.hasPrefix("  12:00:00  transition") }.count == TopDetails.transitions)
        #expect(lines.last == "  12:00:00  transition 9")
    }

    @Test func aJournalThatCannotBeReadIsSaid() {
        let lines = TopDetails.lines(
            row, rules: nil, history: .failure(.init(.call("sd_journal_open"), errno: 13)), localTime: time)
        #expect(lines.last?.hasPrefix("the journal cannot be read: ") == true)
        #expect(!lines.contains { $0.hasPrefix("rules") })
    }
}
