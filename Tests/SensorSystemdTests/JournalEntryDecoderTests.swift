import SensorCore
import SensorNotify
import Testing
@testable import SensorSystemd
@testable import SensorRuntime

/// ``JournalEntryDecoder`` is the inverse of ``JournalFields``: every kind of alert event
/// written and read back is what the journal keeps of it, and a hostile entry is a clear
/// error naming its field, never a crash.
struct JournalEntryDecoderTests {
    static let cpu = SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature)
    static let baro = SensorInfo(id: "sim:baro", quantity: .pressure)
    static let hostile = SensorInfo(id: "hwmon:x/temp1", label: "Zone\u{1b}[2J\n<0>forged", quantity: .temperature)

    static func event(
        _ kind: EventKind = .firing, _ severity: Severity = .warning, sensor: SensorInfo = cpu, value: Double? = 81.5,
        threshold: Double = 80, condition: ConditionKind = .above
    ) -> AlertEvent {
        AlertEvent(
            time: .seconds(12), kind: kind, rule: "cpu-hot", ruleIndex: 0, sensor: sensor, severity: severity,
            value: value, threshold: threshold, condition: condition)
    }

    /// One of each: every kind, severity, condition and optional field JournalFields writes.
    static let events: [AlertEvent] = {
        var all = [
            event(), event(.resolved, .critical, value: 79.25), event(.repeat, .notice), event(.firing, .info),
            event(sensor: baro, value: 101_325, threshold: 100_000, condition: .below),
            event(value: nil, threshold: 30, condition: .stale), event(.resolved, value: -0.25, condition: .stale),
            event(sensor: hostile, value: 1e-3, threshold: 0.001),
        ]
        var rise = event(value: 12, threshold: 5, condition: .rise)
        rise.within = 60
        var predict = AlertEvent(
            time: .seconds(3), kind: .firing, rule: "cpu-trend", ruleIndex: 2, sensor: cpu, severity: .critical,
            value: 78, threshold: 90, condition: .predict,
            predict: PredictCondition(direction: .above, threshold: 90, within: .seconds(600), over: .seconds(1800)),
            predicted: 93.2)
        var noLine = predict
        noLine.predicted = nil
        predict.kind = .repeat
        let limit = AlertEvent(
            time: .seconds(3), kind: .firing, rule: "too-hot", ruleIndex: 0, sensor: cpu, severity: .critical,
            value: 101, threshold: 100, condition: .above, isLimitRule: true, limit: "crit")
        var alarm = event(value: 70, threshold: 100, condition: .alarm)
        alarm.limit = "crit"
        alarm.hardwareAlarm = true
        var gone = event(.resolved, value: nil)
        gone.sensorGone = true
        let annotated = AlertEvent(
            time: .seconds(1), kind: .firing, rule: "fan-stopped", ruleIndex: 1, sensor: cpu, severity: .critical,
            value: 0, threshold: 100, condition: .below,
            annotations: RuleAnnotations(summary: "fan stopped", description: "check\nthe fan", runbook: "https://x/r"))
        all += [rise, predict, noLine, limit, alarm, gone, annotated]
        return all
    }()

    /// What the journal keeps of `e`, said from the event itself.
    static func kept(_ e: AlertEvent, at usec: UInt64) -> JournalAlertRecord {
        var r = JournalAlertRecord(
            realtimeMicroseconds: usec, host: "web1", kind: e.kind, rule: e.rule, severity: e.severity,
            sensor: e.sensor.id.rawValue, label: e.sensor.label, unit: e.sensor.unit, value: e.value,
            threshold: e.threshold, message: e.message, condition: e.condition, predicted: e.predicted,
            limit: e.limit, within: e.within)
        r.quantity = e.sensor.quantity.rawValue
        r.hardwareAlarm = e.hardwareAlarm
        r.sensorGone = e.sensorGone
        r.annotations = e.annotations
        return r
    }

    static func decode(_ fields: [String]) throws(JournalEntryError) -> JournalAlertRecord {
        try JournalEntryDecoder.alert(JournalEntryDecoder.fields(fields), realtimeMicroseconds: 7)
    }

    static func error(_ fields: [String]) -> JournalEntryError? {
        do {
            _ = try decode(fields)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: events) func everyKindOfAlertEventReadsBackAsWritten(_ event: AlertEvent) throws {
        let written = JournalFields.fields(for: event) + ["_HOSTNAME=web1"]
        #expect(try Self.decode(written) == Self.kept(event, at: 7))
    }

    @Test func theNotifyEventOfAnEntryCarriesWhatTheEntrySays() throws {
        var gone = Self.event(.resolved, value: nil)
        gone.sensorGone = true
        gone.annotations = RuleAnnotations(summary: "s")
        let event = try Self.decode(JournalFields.fields(for: gone) + ["_HOSTNAME=web1"]).notifyEvent
        #expect(event.kind == .resolved && event.rule == "cpu-hot" && event.host == "web1")
        #expect(event.sensorGone && event.annotations.summary == "s" && event.quantity == "temperature")
        #expect(event.message == gone.message && event.value == nil && event.threshold == 80)
    }

    /// SPEC §23: notify takes a BMC's alerts like any sensor's, a limit rule on an SDR
    /// threshold and a discrete sensor's alarm with its states' words, from the entry alone.
    @Test func aBMCsAlertsReachNotifyLikeAnySensorsWithTheirLimitAndStatesWords() throws {
        let inlet = SensorInfo(id: "ipmi:bmc-r1-07/Inlet_Temp", label: "Inlet Temp", quantity: .temperature)
        var hot = AlertEvent(
            time: .seconds(12), kind: .firing, rule: "too-hot", ruleIndex: 0, sensor: inlet, severity: .critical,
            value: 47, threshold: 45, condition: .above)
        hot.limit = "crit"
        let psu = SensorInfo(id: "ipmi:bmc-r1-07/PSU1_Status", label: "PSU1 Status", quantity: .state)
        var alarm = AlertEvent(
            time: .seconds(14), kind: .firing, rule: "hw-alarm", ruleIndex: 1, sensor: psu, severity: .critical,
            value: nil, threshold: 1, condition: .alarm)
        alarm.detail = "Power Supply Failure detected"

        let limit = try Self.decode(JournalFields.fields(for: hot) + ["_HOSTNAME=rack1"]).notifyEvent
        #expect(
            limit.json.contains(
                #""sensor":"ipmi:bmc-r1-07/Inlet_Temp","label":"Inlet Temp","quantity":"temperature","value":47,"#))
        #expect(limit.json.hasSuffix(#","limit":"crit"}"#))
        #expect(limit.environment.contains("SENSOR_ID=ipmi:bmc-r1-07/Inlet_Temp"))
        #expect(limit.message == hot.message && limit.host == "rack1")

        let states = try Self.decode(JournalFields.fields(for: alarm) + ["_HOSTNAME=rack1"]).notifyEvent
        #expect(states.sensor == "ipmi:bmc-r1-07/PSU1_Status" && states.quantity == "state" && states.value == nil)
        #expect(states.message == alarm.message)
        #expect(states.message.hasSuffix(": Power Supply Failure detected"))
        #expect(states.environment.contains("ALERT_MESSAGE=\(alarm.message)"))
    }

    @Test func anEntryWithOnlyItsStateAndRuleReadsWithEverythingElseEmpty() throws {
        let record = try Self.decode(["ALERT_STATE=firing", "ALERT_RULE=r", "ALERT_SEVERITY=dire"])
        #expect(
            record
                == JournalAlertRecord(
                    realtimeMicroseconds: 7, kind: .firing, rule: "r", severity: nil, sensor: "", value: nil,
                    threshold: nil))
    }

    @Test func aMissingStateOrRuleIsAnErrorNamingTheField() {
        let written = JournalFields.fields(for: Self.event())
        #expect(
            Self.error(written.filter { !$0.hasPrefix("ALERT_STATE=") })
                == JournalEntryError(field: "ALERT_STATE", value: nil, problem: .missing))
        #expect(Self.error(written.filter { !$0.hasPrefix("ALERT_RULE=") })?.description == "ALERT_RULE: missing")
        #expect(
            Self.error(["ALERT_STATE=burning", "ALERT_RULE=r"])?.description
                == "ALERT_STATE=burning: not a value the field takes")
    }

    @Test(arguments: ["SENSOR_VALUE", "ALERT_THRESHOLD", "ALERT_PREDICTED", "ALERT_WITHIN"])
    func aNumberThatIsNoneOrNotFiniteIsAnError(_ field: String) {
        for bad in ["warm", "", "nan", "inf", "-inf", "1e400", "0x", "1,5"] {
            #expect(
                Self.error(["ALERT_STATE=firing", "ALERT_RULE=r", "\(field)=\(bad)"])
                    == JournalEntryError(field: field, value: bad, problem: .notANumber), "\(field)=\(bad)")
        }
    }

    @Test func aHugeNumberOrANegativeWindowIsOutOfRange() throws {
        for (field, bad) in [
            ("SENSOR_VALUE", "1e300"), ("ALERT_THRESHOLD", "-2e15"), ("ALERT_WITHIN", "1e300"),
            ("ALERT_WITHIN", "-5"), ("ALERT_PREDICTED", "9007199254740993"),
        ] {
            #expect(
                Self.error(["ALERT_STATE=firing", "ALERT_RULE=r", "\(field)=\(bad)"])
                    == JournalEntryError(field: field, value: bad, problem: .outOfRange), "\(field)=\(bad)")
        }
        #expect(try Self.decode(["ALERT_STATE=firing", "ALERT_RULE=r", "SENSOR_VALUE=-1e15"]).value == -1e15)
    }

    @Test func aFlagWithAnotherWordIsAnError() {
        #expect(Self.error(["ALERT_STATE=firing", "ALERT_RULE=r", "ALERT_ALARM=yes"])?.problem == .unknownValue)
        #expect(Self.error(["ALERT_STATE=resolved", "ALERT_RULE=r", "ALERT_REASON=lost"])?.problem == .unknownValue)
    }

    @Test func anErrorQuotesAHugeOrHostileValueEscapedAndCutShort() {
        let huge = String(repeating: "9", count: 100_000)
        let error = Self.error(["ALERT_STATE=firing", "ALERT_RULE=r", "SENSOR_VALUE=" + huge])
        #expect(error?.problem == .notANumber, "beyond any Double: infinite")
        #expect(error?.description == "SENSOR_VALUE=" + String(repeating: "9", count: 40) + "…: not a number")
        #expect(
            Self.error(["ALERT_STATE=\u{1b}[2J\n<0>x", "ALERT_RULE=r"])?.description
                == #"ALERT_STATE=\x1b[2J\n<0>x: not a value the field takes"#)
    }

    @Test func theFirstOfAFieldWrittenTwiceCounts() throws {
        let record = try Self.decode(["ALERT_STATE=firing", "ALERT_RULE=a", "ALERT_RULE=b", "no equals sign"])
        #expect(record.rule == "a")
    }

    @Test func aHostileSilenceIsAnErrorNamingTheField() throws {
        let silence = Silence(
            id: "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", rule: try! Glob("fan-*"),
            startsMicroseconds: 1_764_684_000_000_000,
            endsMicroseconds: 1_764_691_200_000_000, by: "alice")
        let written = JournalFields.fields(for: silence)
        func error(_ replace: String, _ with: String) -> JournalEntryError? {
            let fields = JournalEntryDecoder.fields(
                written.map { $0.hasPrefix(replace + "=") ? replace + "=" + with : $0 })
            do {
                _ = try JournalEntryDecoder.silence(fields)
                return nil
            } catch {
                return error
            }
        }
        #expect(try JournalEntryDecoder.silence(JournalEntryDecoder.fields(written)) == silence)
        #expect(error("SILENCE_ENDS", "later")?.problem == .notATime)
        #expect(error("SILENCE_STARTS", "1969-12-31T23:59:59Z")?.problem == .notATime)
        #expect(error("SILENCE_STATE", "paused")?.problem == .unknownValue)
        #expect(error("SILENCE_ID", "")?.problem == .missing)
        guard case .notAGlob? = error("SILENCE_RULE", "[")?.problem else {
            Issue.record("an unclosed bracket is not a glob")
            return
        }
    }
}
