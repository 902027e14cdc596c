import SensorCore
import SensorRuntime
import Testing

/// The `<N>` lines stderr carries under systemd, golden: each kind of entry at the priority
/// its journal entry has, every line of a text prefixed.
struct PriorityLineTests {
    static let cpu = SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature)

    static func event(_ kind: EventKind, _ severity: Severity) -> AlertEvent {
        AlertEvent(
            time: .seconds(1), kind: kind, rule: "cpu-hot", ruleIndex: 0, sensor: cpu, severity: severity,
            value: 81.5, threshold: 80, condition: .above)
    }

    @Test func aFiringEventsLineHasItsSeveritysPriority() {
        #expect(
            PriorityLine.text(for: Self.event(.firing, .critical))
                == "<2>cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C")
        #expect(PriorityLine.text(for: Self.event(.repeat, .warning)).hasPrefix("<4>cpu-hot repeat: "))
        #expect(PriorityLine.text(for: Self.event(.firing, .notice)).hasPrefix("<5>"))
        #expect(PriorityLine.text(for: Self.event(.firing, .info)).hasPrefix("<6>"))
    }

    @Test func aResolvedEventIsANoticeWhateverItsSeverity() {
        #expect(
            PriorityLine.text(for: Self.event(.resolved, .critical))
                == "<5>cpu-hot resolved: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C, no longer above 80 °C")
    }

    @Test func aFailingSensorIsAWarningAndItsRecoveryANotice() {
        #expect(
            PriorityLine.text(for: SensorFault(time: .seconds(1), sensor: Self.cpu, reason: "EIO"))
                == "<4>sensor thermal:thermal_zone0 (x86_pkg_temp) read failed: EIO")
        #expect(
            PriorityLine.text(for: SensorFault(time: .seconds(1), sensor: Self.cpu, reason: nil))
                == "<5>sensor thermal:thermal_zone0 (x86_pkg_temp) reads again")
    }

    @Test func aSensorThatAppearsOrGoesIsANotice() {
        #expect(
            PriorityLine.text(for: SensorPresence(time: .seconds(1), sensor: Self.cpu, appeared: true))
                == "<5>sensor thermal:thermal_zone0 (x86_pkg_temp) appeared")
        #expect(
            PriorityLine.text(for: SensorPresence(time: .seconds(1), sensor: Self.cpu, appeared: false))
                == "<5>sensor thermal:thermal_zone0 (x86_pkg_temp) gone")
    }

    @Test func everyLineOfAMessageHasThePrefixAndControlsAreEscaped() {
        let entry = LogEntry(level: .error, message: "reload failed:\nline 2\r\n<0>forged")
        #expect(PriorityLine.text(for: entry) == "<3>reload failed:\n<3>line 2\\r\n<3><0>forged")
        #expect(PriorityLine.text("sensorwatch: no journal", at: .warning) == "<4>sensorwatch: no journal")
    }

    @Test func theLevelsAreTheSyslogPriorities() {
        #expect(LogLevel.allCases.map(\.priority) == [2, 3, 4, 5, 6, 7])
        #expect(Severity.allCases.map(\.level) == [.critical, .warning, .notice, .info])
    }
}
