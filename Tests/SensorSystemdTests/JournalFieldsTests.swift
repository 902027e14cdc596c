import SensorCore
import SensorRuntime
@testable import SensorSystemd
import Testing

struct JournalFieldsTests {
    static let location = CodeLocation(file: "SensorCore/Daemon.swift", line: 42, function: "reloadOnce()")
    static let cpu = SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature)
    static let baro = SensorInfo(id: "sim:baro", quantity: .pressure)

    static func event(
        _ kind: EventKind, _ severity: Severity, value: Double?, sensor: SensorInfo = cpu,
        threshold: Double = 80, condition: ConditionKind = .above
    ) -> AlertEvent {
        AlertEvent(
            time: .seconds(12), kind: kind, rule: "cpu-hot", ruleIndex: 0, sensor: sensor,
            severity: severity, value: value, threshold: threshold, condition: condition)
    }

    @Test func firingEventHasEverySpecField() {
        #expect(
            JournalFields.fields(for: Self.event(.firing, .warning, value: 81.5)) == [
                "MESSAGE=cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769",
                "ALERT_RULE=cpu-hot",
                "ALERT_STATE=firing",
                "ALERT_SEVERITY=warning",
                "ALERT_CONDITION=above",
                "ALERT_THRESHOLD=80",
                "SENSOR_ID=thermal:thermal_zone0",
                "SENSOR_LABEL=x86_pkg_temp",
                "SENSOR_QUANTITY=temperature",
                "SENSOR_UNIT=°C",
                "SENSOR_VALUE=81.5",
            ])
    }

    @Test func aLimitRulesEventNamesItsLimitInTheMessageAndALERT_LIMIT() {
        let sensor = SensorInfo(id: "hwmon:coretemp/temp1", label: "Package id 0", quantity: .temperature)
        let event = AlertEvent(
            time: .seconds(3), kind: .firing, rule: "too-hot", ruleIndex: 0, sensor: sensor, severity: .critical,
            value: 101, threshold: 100, condition: .above, isLimitRule: true, limit: "crit")
        #expect(
            JournalFields.fields(for: event) == [
                "MESSAGE=too-hot firing: hwmon:coretemp/temp1 (Package id 0) 101 °C above 100 °C (crit)",
                "PRIORITY=2",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769",
                "ALERT_RULE=too-hot",
                "ALERT_STATE=firing",
                "ALERT_SEVERITY=critical",
                "ALERT_CONDITION=above",
                "ALERT_THRESHOLD=100",
                "ALERT_LIMIT=crit",
                "SENSOR_ID=hwmon:coretemp/temp1",
                "SENSOR_LABEL=Package id 0",
                "SENSOR_QUANTITY=temperature",
                "SENSOR_UNIT=°C",
                "SENSOR_VALUE=101",
            ])
        #expect(
            EventFormatter.json(event)
                == #"{"time":3.0,"event":"firing","rule":"too-hot","sensor":"hwmon:coretemp/temp1","severity":"critical","value":101,"threshold":100,"limit":"crit"}"#
        )
        var otherwise = event
        otherwise.limit = nil
        otherwise.threshold = 90
        #expect(!JournalFields.fields(for: otherwise).contains { $0.hasPrefix("ALERT_LIMIT=") })
        #expect(EventFormatter.json(otherwise).hasSuffix(#""threshold":90,"limit":null}"#))
        #expect(
            otherwise.message
                == "too-hot firing: hwmon:coretemp/temp1 (Package id 0) 101 °C above 90 °C")
        otherwise.isLimitRule = false
        #expect(EventFormatter.json(otherwise).hasSuffix(#""threshold":90}"#))
    }

    /// SPEC §21: a rule's annotations are fields of their own after the alert's, each
    /// absent when unset; `simulate --json` ends with them where set.
    @Test func annotationsAreALERT_SUMMARYDescriptionAndRunbookWhereSet() {
        var event = Self.event(.firing, .warning, value: 81.5)
        event.annotations = RuleAnnotations(
            summary: "CPU hot", description: "Two lines:\nclean the fan", runbook: "https://wiki.example/cpu-hot")
        // The fields of the same event without them (firingEventHasEverySpecField), and these three.
        var want = JournalFields.fields(for: Self.event(.firing, .warning, value: 81.5))
        want.insert(
            contentsOf: [
                "ALERT_SUMMARY=CPU hot",
                "ALERT_DESCRIPTION=Two lines:\nclean the fan",
                "ALERT_RUNBOOK=https://wiki.example/cpu-hot",
            ], at: want.firstIndex(of: "ALERT_THRESHOLD=80")! + 1)
        #expect(JournalFields.fields(for: event) == want)
        #expect(
            EventFormatter.json(event).hasSuffix(
                #""threshold":80,"summary":"CPU hot","description":"Two lines:\nclean the fan","runbook":"https://wiki.example/cpu-hot"}"#
            ))
        event.annotations = RuleAnnotations(runbook: "https://wiki.example/cpu-hot")
        let fields = JournalFields.fields(for: event)
        #expect(fields.contains("ALERT_RUNBOOK=https://wiki.example/cpu-hot"))
        #expect(!fields.contains { $0.hasPrefix("ALERT_SUMMARY=") || $0.hasPrefix("ALERT_DESCRIPTION=") })
        #expect(EventFormatter.json(event).hasSuffix(#""threshold":80,"runbook":"https://wiki.example/cpu-hot"}"#))
    }

    /// SPEC §16b: a limit rule fired by the chip's latched alarm says so in `ALERT_ALARM=1`
    /// and its message; a resolved one, or one fired by the value, has neither.
    @Test func aHardwareAlarmFiringHasALERT_ALARM() {
        let sensor = SensorInfo(id: "hwmon:coretemp-isa-0000/temp1", label: "Package id 0", quantity: .temperature)
        var event = AlertEvent(
            time: .seconds(3), kind: .firing, rule: "too-hot", ruleIndex: 0, sensor: sensor, severity: .critical,
            value: 97, threshold: 100, condition: .above, isLimitRule: true, limit: "crit")
        event.hardwareAlarm = true
        let f = JournalFields.fields(for: event)
        #expect(
            f[0]
                == "MESSAGE=too-hot firing: hwmon:coretemp-isa-0000/temp1 (Package id 0) 97 °C above 100 °C (crit) (hardware alarm)"
        )
        #expect(f.firstIndex(of: "ALERT_ALARM=1") == f.firstIndex(of: "ALERT_LIMIT=crit")! + 1)
        event.hardwareAlarm = false
        #expect(!JournalFields.fields(for: event).contains("ALERT_ALARM=1"))
    }

    @Test func resolvedEventIsNoticeWithItsOwnId() {
        let f = JournalFields.fields(for: Self.event(.resolved, .critical, value: 74))
        #expect(f[0] == "MESSAGE=cpu-hot resolved: thermal:thermal_zone0 (x86_pkg_temp) 74 °C, no longer above 80 °C")
        #expect(f[1] == "PRIORITY=5")
        #expect(f[3] == "MESSAGE_ID=e4eda26d66284e999fe0af5ec5782b44")
        #expect(f.contains("ALERT_STATE=resolved"))
        #expect(f.contains("ALERT_SEVERITY=critical"))
    }

    @Test(arguments: [
        (EventKind.firing, Severity.critical, "PRIORITY=2"),
        (.firing, .warning, "PRIORITY=4"),
        (.firing, .notice, "PRIORITY=5"),
        (.firing, .info, "PRIORITY=6"),
        (.repeat, .critical, "PRIORITY=2"),
        (.repeat, .info, "PRIORITY=6"),
        (.resolved, .critical, "PRIORITY=5"),
        (.resolved, .info, "PRIORITY=5"),
    ])
    func priorityFollowsSeverityExceptResolved(kind: EventKind, severity: Severity, expected: String) {
        #expect(JournalFields.fields(for: Self.event(kind, severity, value: 90))[1] == expected)
    }

    @Test func staleFiringWithoutValueLeavesOutValueAndEmptyLabel() {
        let e = Self.event(.firing, .warning, value: nil, sensor: Self.baro, threshold: 30, condition: .stale)
        #expect(
            JournalFields.fields(for: e) == [
                "MESSAGE=cpu-hot firing: sim:baro no reading for 30s",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769",
                "ALERT_RULE=cpu-hot",
                "ALERT_STATE=firing",
                "ALERT_SEVERITY=warning",
                "ALERT_CONDITION=stale",
                "ALERT_THRESHOLD=30",
                "SENSOR_ID=sim:baro",
                "SENSOR_QUANTITY=pressure",
                "SENSOR_UNIT=hPa",
            ])
    }

    @Test func predictEventCarriesAlertPredictedUnlessThereWasNoLine() {
        let trend = PredictCondition(direction: .above, threshold: 90, within: .seconds(600), over: .seconds(1800))
        func event(_ kind: EventKind, _ value: Double, _ predicted: Double?) -> AlertEvent {
            AlertEvent(
                time: .seconds(12), kind: kind, rule: "cpu-trend", ruleIndex: 0, sensor: Self.cpu,
                severity: .warning, value: value, threshold: 90, condition: .predict, predict: trend,
                predicted: predicted)
        }
        #expect(
            JournalFields.fields(for: event(.firing, 78, 93.21234)) == [
                "MESSAGE=cpu-trend firing: thermal:thermal_zone0 (x86_pkg_temp) 78 °C, heading above 90 °C within 10m (93.212 °C)",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769",
                "ALERT_RULE=cpu-trend",
                "ALERT_STATE=firing",
                "ALERT_SEVERITY=warning",
                "ALERT_CONDITION=predict",
                "ALERT_THRESHOLD=90",
                "ALERT_WITHIN=600",
                "ALERT_PREDICTED=93.21234",
                "SENSOR_ID=thermal:thermal_zone0",
                "SENSOR_LABEL=x86_pkg_temp",
                "SENSOR_QUANTITY=temperature",
                "SENSOR_UNIT=°C",
                "SENSOR_VALUE=78",
            ])
        let resolved = JournalFields.fields(for: event(.resolved, 70, nil))
        #expect(
            resolved[0]
                == "MESSAGE=cpu-trend resolved: thermal:thermal_zone0 (x86_pkg_temp) 70 °C, no longer heading above 90 °C within 10m"
        )
        #expect(!resolved.contains { $0.hasPrefix("ALERT_PREDICTED=") })
        #expect(
            !JournalFields.fields(for: Self.event(.firing, .warning, value: 81.5))
                .contains { $0.hasPrefix("ALERT_PREDICTED=") })
    }

    @Test func repeatEventHasTheRepeatId() {
        let f = JournalFields.fields(for: Self.event(.repeat, .warning, value: 85))
        #expect(f[3] == "MESSAGE_ID=0787280739f14696816e8cf0a24bcd6c")
    }

    @Test func sensorFaultIsWarningAndRecoveryNotice() {
        let failing = SensorFault(time: .seconds(3), sensor: Self.cpu, reason: "EIO")
        #expect(
            JournalFields.fields(for: failing) == [
                "MESSAGE=sensor thermal:thermal_zone0 (x86_pkg_temp) read failed: EIO",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=561c305408854a5aa1633061d1794bd7",
                "SENSOR_ID=thermal:thermal_zone0",
                "SENSOR_LABEL=x86_pkg_temp",
                "SENSOR_QUANTITY=temperature",
                "SENSOR_UNIT=°C",
                "SENSOR_STATE=failing",
                "SENSOR_FAULT=EIO",
            ])
        let back = SensorFault(time: .seconds(4), sensor: Self.baro, reason: nil)
        #expect(
            JournalFields.fields(for: back) == [
                "MESSAGE=sensor sim:baro reads again",
                "PRIORITY=5",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=561c305408854a5aa1633061d1794bd7",
                "SENSOR_ID=sim:baro",
                "SENSOR_QUANTITY=pressure",
                "SENSOR_UNIT=hPa",
                "SENSOR_STATE=reading",
            ])
    }

    /// SPEC §20: a sensor that appears or goes is one notice each, with its own id.
    @Test func aSensorThatAppearsOrGoesIsANoticeWithItsOwnId() {
        #expect(
            JournalFields.fields(for: SensorPresence(time: .seconds(3), sensor: Self.cpu, appeared: true)) == [
                "MESSAGE=sensor thermal:thermal_zone0 (x86_pkg_temp) appeared",
                "PRIORITY=5",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=3c8d5e0a9b2f4d17a6e1c4b7f0925d38",
                "SENSOR_ID=thermal:thermal_zone0",
                "SENSOR_LABEL=x86_pkg_temp",
                "SENSOR_QUANTITY=temperature",
                "SENSOR_UNIT=°C",
                "SENSOR_STATE=appeared",
            ])
        #expect(
            JournalFields.fields(for: SensorPresence(time: .seconds(4), sensor: Self.baro, appeared: false)) == [
                "MESSAGE=sensor sim:baro gone",
                "PRIORITY=5",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=a71f2c6e58d34b09b3e7d1c0f46a8e25",
                "SENSOR_ID=sim:baro",
                "SENSOR_QUANTITY=pressure",
                "SENSOR_UNIT=hPa",
                "SENSOR_STATE=gone",
            ])
    }

    /// SPEC §20: an alert resolved because its sensor went says so, and has no value.
    @Test func aResolvedForAGoneSensorHasALERT_REASONGone() {
        var event = Self.event(.resolved, .critical, value: nil)
        event.sensorGone = true
        let f = JournalFields.fields(for: event)
        #expect(f.contains("ALERT_REASON=gone"))
        #expect(!f.contains { $0.hasPrefix("SENSOR_VALUE=") })
        #expect(f[0] == "MESSAGE=cpu-hot resolved: thermal:thermal_zone0 (x86_pkg_temp) sensor gone")
        #expect(!JournalFields.fields(for: Self.event(.resolved, .critical, value: 70)).contains("ALERT_REASON=gone"))
    }

    @Test func daemonMessageCarriesIdAndExtraFields() {
        let f = JournalFields.fields(
            message: "/etc/sensorwatch/sensorwatch.json5: rules[2].above: not a number; keeping the old configuration",
            priority: 3, id: .configReloadFailed, extra: [("CONFIG_FILE", "/etc/sensorwatch/sensorwatch.json5")],
            at: Self.location)
        #expect(
            f == [
                "MESSAGE=/etc/sensorwatch/sensorwatch.json5: rules[2].above: not a number; keeping the old configuration",
                "PRIORITY=3",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=3fce295f7da14aec83c51a0fba31a6be",
                "CONFIG_FILE=/etc/sensorwatch/sensorwatch.json5",
                "CODE_FILE=SensorCore/Daemon.swift",
                "CODE_LINE=42",
                "CODE_FUNC=reloadOnce()",
            ])
        #expect(
            !JournalFields.fields(message: "x", priority: 6, id: nil, at: Self.location)
                .contains { $0.hasPrefix("MESSAGE_ID=") })
    }

    /// SPEC §16a: a fan's alert carries its quantity and unit in the journal fields.
    @Test func aStoppedFansAlertHasItsQuantityAndUnit() {
        let fan = SensorInfo(id: "hwmon:nct6798/fan2", label: "CPU fan", quantity: .fan)
        let event = AlertEvent(
            time: .seconds(30), kind: .firing, rule: "fan-slow", ruleIndex: 0, sensor: fan, severity: .warning,
            value: 0, threshold: 300, condition: .below, isLimitRule: true, limit: "min")
        #expect(
            JournalFields.fields(for: event) == [
                "MESSAGE=fan-slow firing: hwmon:nct6798/fan2 (CPU fan) 0 rpm below 300 rpm (min)",
                "PRIORITY=4",
                "SYSLOG_IDENTIFIER=sensorwatch",
                "MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769",
                "ALERT_RULE=fan-slow",
                "ALERT_STATE=firing",
                "ALERT_SEVERITY=warning",
                "ALERT_CONDITION=below",
                "ALERT_THRESHOLD=300",
                "ALERT_LIMIT=min",
                "SENSOR_ID=hwmon:nct6798/fan2",
                "SENSOR_LABEL=CPU fan",
                "SENSOR_QUANTITY=fan",
                "SENSOR_UNIT=rpm",
                "SENSOR_VALUE=0",
            ])
    }
}
