import SensorCore
import SensorLive
import Testing
@testable import SensorCLI

/// `sensorwatch watch`'s lines for a person (SPEC §22), against hand-made messages.
struct WatchFormatterTests {
    static let t0 = 1_800_000_000.0
    let plain = WatchFormatter(colour: false, clockTime: { _ in "21:03:05" })
    let coloured = WatchFormatter(colour: true, clockTime: { _ in "21:03:05" })
    static let pkg = LiveSensor(
        id: "thermal:x86_pkg_temp", label: "x86_pkg_temp", quantity: "temperature", unit: "°C", value: 55, time: t0)

    @Test func aChangedSensorIsOneLineOfTimeIdValueAndUnit() {
        let lines = plain.lines(.change(LiveChange(time: Self.t0, sensors: [Self.pkg])), state: LiveState())
        #expect(lines == ["21:03:05 thermal:x86_pkg_temp 55 °C"])
    }

    @Test func aDiscreteSensorIsOneLineOfItsStatesWords() {
        let psu = LiveSensor(
            id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: "state", unit: "", time: Self.t0,
            state: ["Presence detected", "Power Supply Failure detected"])
        var none = psu
        none.id = "ipmi:bmc-r1-01/Intrusion"
        none.state = []
        let lines = plain.lines(.change(LiveChange(time: Self.t0, sensors: [psu, none])), state: LiveState())
        #expect(
            lines == [
                "21:03:05 ipmi:bmc-r1-01/PSU1_Status Presence detected, Power Supply Failure detected",
                "21:03:05 ipmi:bmc-r1-01/Intrusion no state asserted",
            ])
    }

    @Test func anAlertTransitionIsInItsSeveritysColourOnATerminalOnly() {
        let alert = LiveAlert(
            rule: "cpu-hot", sensor: "thermal:x86_pkg_temp", severity: "critical", state: .firing, since: Self.t0,
            value: 97)
        var state = LiveState()
        state.apply(.snapshot(LiveSnapshot(sensors: [Self.pkg])))
        let message = LiveMessage.change(LiveChange(time: Self.t0, alerts: [alert]))
        #expect(plain.lines(message, state: state) == ["21:03:05 thermal:x86_pkg_temp FIRING cpu-hot (critical) 97 °C"])
        #expect(
            coloured.lines(message, state: state) == [
                "21:03:05 thermal:x86_pkg_temp \u{1B}[1;31mFIRING\u{1B}[0m cpu-hot (critical) 97 °C"
            ])
        var resolved = alert
        resolved.state = .ok
        #expect(
            coloured.lines(.change(LiveChange(time: Self.t0, alerts: [resolved])), state: state)[0].contains(
                "\u{1B}[32mresolved\u{1B}[0m"))
    }

    @Test func faultsSleepAppearingAndGoingAreSaid() {
        var broken = Self.pkg
        broken.ok = false
        broken.value = nil
        broken.error = "EIO"
        var asleep = Self.pkg
        asleep.id = "hwmon:nvme-pci-0100/temp1"
        asleep.asleep = true
        let lines = plain.lines(
            .change(
                LiveChange(
                    time: Self.t0, sensors: [broken, asleep], appeared: ["iio:bme280/temp"], gone: ["hwmon:x/temp1"])),
            state: LiveState())
        #expect(
            lines == [
                "21:03:05 iio:bme280/temp appeared", "21:03:05 thermal:x86_pkg_temp fault: EIO",
                "21:03:05 hwmon:nvme-pci-0100/temp1 asleep", "21:03:05 hwmon:x/temp1 gone",
            ])
    }

    @Test func textFromTheStreamIsEscaped() {
        var hostile = Self.pkg
        hostile.id = "thermal:evil\u{1B}[2J\n<0>forged"
        let line = coloured.lines(.change(LiveChange(time: Self.t0, sensors: [hostile])), state: LiveState())[0]
        #expect(line == #"21:03:05 thermal:evil\x1b[2J\n<0>forged 55 °C"#)
    }

    @Test func aSnapshotGivesTheValuesAndAlertsNowAndHelloNothing() {
        let alert = LiveAlert(
            rule: "cpu-warm", sensor: "thermal:x86_pkg_temp", severity: "warning", state: .pending, since: Self.t0)
        let waiting = LiveSensor(id: "thermal:acpitz", quantity: "temperature", unit: "°C")
        let lines = plain.lines(
            .snapshot(LiveSnapshot(sensors: [Self.pkg, waiting], alerts: [alert])), state: LiveState())
        #expect(
            lines == [
                "21:03:05 thermal:x86_pkg_temp 55 °C", "21:03:05 thermal:x86_pkg_temp pending cpu-warm (warning)",
            ])
        #expect(plain.lines(.hello(LiveHello(host: "h", pid: 1, started: Self.t0)), state: LiveState()).isEmpty)
    }
}
