import SensorCore
import SensorLive
import SensorTerminal
import Testing
@testable import SensorCLI

/// `top`'s rows (SPEC §22): every quantity the daemon reads, grouped by chip or source, and
/// the state from the daemon's rules and the sensor's health.
struct TopRowTests {
    static let t0 = TopFixtures.t0

    static func sensor(_ id: String, _ quantity: String, _ unit: String, _ value: Double?) -> LiveSensor {
        LiveSensor(id: id, quantity: quantity, unit: unit, value: value, time: t0)
    }

    @Test func everyQuantityIsARowWithItsUnitGroupedByChip() {
        var state = LiveState()
        state.apply(
            .snapshot(
                LiveSnapshot(sensors: [
                    Self.sensor("thermal:x86_pkg_temp", "temperature", "°C", 55),
                    Self.sensor("hwmon:sht3x-i2c-1-44/humidity1", "humidity", "%RH", 41.5),
                    Self.sensor("iio:bme280/pressure", "pressure", "hPa", 1013.2),
                    Self.sensor("hwmon:nct6775-isa-0290/fan1", "fan", "rpm", 1200),
                    Self.sensor("hwmon:nct6775-isa-0290/in0", "voltage", "V", 1.05),
                    Self.sensor("hwmon:nct6775-isa-0290/power1", "power", "W", 35.2),
                    Self.sensor("hwmon:nct6775-isa-0290/curr1", "current", "A", 2.5),
                ])))
        let rows = TopRow.rows(state)
        #expect(
            rows.map(\.group) == [
                "hwmon:nct6775-isa-0290", "hwmon:nct6775-isa-0290", "hwmon:nct6775-isa-0290", "hwmon:nct6775-isa-0290",
                "hwmon:sht3x-i2c-1-44", "iio:bme280", "thermal",
            ])
        let screen = TopScreen(state: state, rows: rows, view: TopView(), connection: .live, now: Self.t0, utf8: true)
            .grid(TerminalSize(rows: 24, columns: 100))
        let text = (0..<24).map(screen.line).joined(separator: "\n")
        for shown in ["55 °C", "41.5 %RH", "1013 hPa", "1200 rpm", "1.05 V", "35.2 W", "2.5 A"] {
            #expect(text.contains(shown), "\(shown) not on the screen")
        }
    }

    @Test func theStateIsTheWorstAlertElseTheHealth() {
        var asleep = Self.sensor("hwmon:nvme-pci-0100/temp1", "temperature", "°C", nil)
        asleep.asleep = true
        var broken = Self.sensor("hwmon:lm75-i2c-1-48/temp1", "temperature", "°C", nil)
        broken.ok = false
        broken.error = "read failed: EIO"
        let alerts = [
            LiveAlert(rule: "warm", sensor: "thermal:a", severity: "warning", state: .pending, since: Self.t0),
            LiveAlert(rule: "hot", sensor: "thermal:b", severity: "critical", state: .firing, since: Self.t0),
            LiveAlert(rule: "warm", sensor: "thermal:b", severity: "warning", state: .pending, since: Self.t0),
            LiveAlert(
                rule: "hot", sensor: "thermal:c", severity: "critical", state: .firing, since: Self.t0,
                silenced: Self.t0 + 3600),
        ]
        var state = LiveState()
        state.apply(
            .snapshot(
                LiveSnapshot(
                    sensors: [
                        Self.sensor("thermal:a", "temperature", "°C", 50),
                        Self.sensor("thermal:b", "temperature", "°C", 99),
                        Self.sensor("thermal:c", "temperature", "°C", 99),
                        Self.sensor("thermal:d", "temperature", "°C", 40),
                        Self.sensor("thermal:e", "temperature", "°C", nil), asleep, broken,
                    ], alerts: alerts)))
        let states = Dictionary(uniqueKeysWithValues: TopRow.rows(state).map { ($0.id, $0.state) })
        #expect(states["thermal:a"] == .pending(rule: "warm"))
        #expect(states["thermal:b"] == .firing(rule: "hot", severity: "critical"))
        #expect(states["thermal:c"] == .silenced(rule: "hot", until: Self.t0 + 3600))
        #expect(states["thermal:d"] == .ok)
        #expect(states["thermal:e"] == .waiting)
        #expect(states["hwmon:nvme-pci-0100/temp1"] == .asleep)
        #expect(states["hwmon:lm75-i2c-1-48/temp1"] == .fault("read failed: EIO"))
        #expect(TopRow.rows(state, alertsOnly: true).map(\.id) == ["thermal:a", "thermal:b", "thermal:c"])
    }

    @Test func aFilterIsAGlobOnIdOrLabelAndPlainTextMatchesInside() {
        let state = TopFixtures.state()
        #expect(TopRow.rows(state, filter: "Core*").map(\.label) == ["Core 0"])
        #expect(TopRow.rows(state, filter: "nct").map(\.label) == ["CPU fan"])
        #expect(TopRow.rows(state, filter: "thermal:*").map(\.id) == ["thermal:acpitz"])
        #expect(TopRow.filterGlob("[") == nil)
    }
}
