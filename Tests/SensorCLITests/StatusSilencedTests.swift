import SensorCore
import Testing
@testable import SensorCLI

/// `status` with a silenced alert (SPEC §21), golden: marked `silenced until TIME` for a
/// person and in the JSON; `--check` leaves it out of WARNING/CRITICAL and names it.
struct StatusSilencedTests {
    typealias F = StatusFormatterTests

    static var silencedCrit: StatusAlert {
        var a = F.crit
        a.silencedUntil = F.t0 + 3600
        return a
    }

    @Test func aPersonSeesTheSilencedAlertMarkedWithItsEnd() {
        let text = StatusFormatter.person(F.report([Self.silencedCrit, F.hot]), now: F.t0 + 61) {
            "+\(Int($0 - F.t0))s"
        }
        #expect(
            text.contains(
                "  CRITICAL  cpu-crit  thermal:thermal_zone0  97 °C  threshold 96 °C (crit)  since +50s, silenced until +3600s\n"
            ))
        #expect(
            text.contains("  WARNING   cpu-hot   thermal:thermal_zone0  97 °C  threshold 85 °C         since +40s\n"))
    }

    @Test func aSilencedCriticalAlertLeavesTheCheckAtTheWarning() {
        let (line, code) = StatusFormatter.check(F.report([Self.silencedCrit, F.hot]))
        #expect(code == .checkWarning)
        #expect(
            line.hasPrefix(
                "SENSORWATCH WARNING - 1 warning: cpu-hot on thermal:thermal_zone0 (97 °C); 1 silenced: cpu-crit on thermal:thermal_zone0 (97 °C) (silenced); 3 sensors, 1 failing |"
            ), "\(line)")
    }

    @Test func onlySilencedAlertsAreOK() {
        var hot = F.hot
        hot.silencedUntil = F.t0 + 60
        let (line, code) = StatusFormatter.check(F.report([Self.silencedCrit, hot]))
        #expect(code == .success)
        #expect(
            line.hasPrefix(
                "SENSORWATCH OK - 2 silenced: cpu-crit on thermal:thermal_zone0 (97 °C) (silenced), cpu-hot"), "\(line)"
        )
    }

    @Test func theJSONMarksOnlyTheSilencedAlert() {
        let json = F.report([Self.silencedCrit, F.hot]).json
        #expect(json.contains("\"thresholdText\":\"96 °C (crit)\",\"silencedUntil\":\"2027-01-15T09:00:00.000Z\"}"))
        #expect(json.contains("\"thresholdText\":\"85 °C\"}"))
    }
}
