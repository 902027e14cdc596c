@testable import SensorCLI
import SensorCore
import SensorRuntime
import Testing

/// `sensorwatch status` for a person and as a monitoring-plugins check (SPEC §19), golden.
struct StatusFormatterTests {
    static let t0 = 1_800_000_000.0
    static let cpu = StatusSensor(
        id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: "temperature", unit: "°C", value: 97,
        time: t0 + 59,
        ok: true, error: nil, limits: StatusLimits(crit: 100))
    static let room = StatusSensor(
        id: "hwmon:sht3x/humidity1", label: "", quantity: "humidity", unit: "%RH", value: 21.25, time: t0 + 59,
        ok: true,
        error: nil)
    static let gone = StatusSensor(
        id: "sim:it's", label: "Outdoor", quantity: "temperature", unit: "°C", value: 12.5, time: t0 + 10, ok: false,
        error: "No such device")
    // A limit rule's alert carries the limit it used (the sensor's crit 100 less a margin of
    // 4, not the rule's `otherwise`).
    static let crit = StatusAlert(
        rule: "cpu-crit", sensor: "thermal:thermal_zone0", severity: .critical, state: .firing, since: t0 + 50,
        value: 97,
        threshold: 96, condition: .above, limit: "crit", unit: "°C")
    static let hot = StatusAlert(
        rule: "cpu-hot", sensor: "thermal:thermal_zone0", severity: .warning, state: .firing, since: t0 + 40, value: 97,
        threshold: 85, condition: .above, unit: "°C")
    static let dry = StatusAlert(
        rule: "dry-air", sensor: "hwmon:sht3x/humidity1", severity: .notice, state: .pending, since: t0 + 55,
        value: 21.25,
        threshold: 25, condition: .below, unit: "%RH")

    static func report(_ alerts: [StatusAlert], sensors: [StatusSensor] = [cpu, room, gone]) -> StatusReport {
        StatusReport(version: "0.1.0", pid: 4242, started: t0, updated: t0 + 60, sensors: sensors, alerts: alerts)
    }

    private func clock(_ s: Double) -> String { "+\(Int(s - Self.t0))s" }

    @Test func aPersonSeesFiringAlertsFirstThenPendingThenEverySensor() {
        #expect(
            StatusFormatter.person(Self.report([Self.dry, Self.hot, Self.crit]), now: Self.t0 + 61, localTime: clock)
                == """
                sensorwatch 0.1.0 (pid 4242), running since +0s, updated +60s

                Firing:
                  CRITICAL  cpu-crit  thermal:thermal_zone0  97 °C  threshold 96 °C (crit)  since +50s
                  WARNING   cpu-hot   thermal:thermal_zone0  97 °C  threshold 85 °C         since +40s

                Pending (waiting for their `for`):
                  NOTICE  dry-air  hwmon:sht3x/humidity1  21.25 %RH  threshold 25 %RH  since +55s

                Sensors (3):
                  ID                     LABEL         VALUE      LIMITS       HEALTH
                  thermal:thermal_zone0  x86_pkg_temp  97 °C      crit 100 °C  ok
                  hwmon:sht3x/humidity1  -             21.25 %RH  -            ok
                  sim:it's               Outdoor       12.5 °C    -            failing: No such device

                """)
    }

    @Test func aBMCsDiscreteSensorShowsItsStatesWordsNotItsStateBits() throws {
        let psu = StatusSensor(
            id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: "state", unit: "", value: nil,
            time: Self.t0 + 58,
            ok: true, error: nil, state: ["Presence detected", "Power Supply Failure detected"])
        let intrusion = StatusSensor(
            id: "ipmi:bmc-r1-01/Intrusion", label: "Intrusion", quantity: "state", unit: "", value: nil,
            time: Self.t0 + 58,
            ok: true, error: nil, state: [])
        let report = Self.report([], sensors: [psu, intrusion])
        #expect(
            StatusFormatter.person(report, now: Self.t0 + 61, localTime: clock) == """
                sensorwatch 0.1.0 (pid 4242), running since +0s, updated +60s

                No alert fires.

                Sensors (2):
                  ID                          LABEL        VALUE                                             LIMITS  HEALTH
                  ipmi:bmc-r1-01/PSU1_Status  PSU1 Status  Presence detected, Power Supply Failure detected  -       ok
                  ipmi:bmc-r1-01/Intrusion    Intrusion    no state asserted                                 -       ok

                """)
        // The file has the words and no value, as `sensors --json` (SPEC §23), and reads back.
        let json = report.json
        #expect(json.contains(#""value":null,"time":"#))
        #expect(json.contains(#""state":["Presence detected","Power Supply Failure detected"]"#))
        #expect(try StatusReport.decode(Array(json.utf8), path: "status.json").sensors.map(\.state) == [psu.state, []])
    }

    @Test func aQuietDaemonSaysNoAlertFiresAndAnOldFileIsFlagged() {
        #expect(
            StatusFormatter.person(Self.report([], sensors: []), now: Self.t0 + 91, localTime: clock) == """
                sensorwatch 0.1.0 (pid 4242), running since +0s, updated +60s
                warning: not updated for more than 30 s; the daemon may be stopped or frozen

                No alert fires.

                Sensors (0):
                  none yet

                """)
    }

    @Test func aCriticalAlertIsCriticalWithPerfdataFromTheLimits() {
        let (line, code) = StatusFormatter.check(Self.report([Self.dry, Self.hot, Self.crit]))
        #expect(code == .checkCritical)
        #expect(
            line == "SENSORWATCH CRITICAL - 1 critical: cpu-crit on thermal:thermal_zone0 (97 °C); "
                + "1 warning: cpu-hot on thermal:thermal_zone0 (97 °C); 3 sensors, 1 failing"
                + " | 'thermal:thermal_zone0'=97;;100 'hwmon:sht3x/humidity1'=21.25 'sim:it''s'=U")
    }

    @Test func aWarningAloneIsWarning() {
        let (line, code) = StatusFormatter.check(Self.report([Self.hot], sensors: [Self.cpu]))
        #expect(code == .checkWarning)
        #expect(
            line
                == "SENSORWATCH WARNING - 1 warning: cpu-hot on thermal:thermal_zone0 (97 °C); 1 sensor | 'thermal:thermal_zone0'=97;;100"
        )
    }

    @Test func pendingNoticeAndFailedReadsAloneAreOK() {
        var notice = Self.dry
        notice.state = .firing
        let (line, code) = StatusFormatter.check(Self.report([Self.dry, notice], sensors: [Self.room, Self.gone]))
        #expect(code == .success)
        #expect(
            line == "SENSORWATCH OK - 1 notice/info: dry-air on hwmon:sht3x/humidity1 (21.25 %RH); 2 sensors, 1 failing"
                + " | 'hwmon:sht3x/humidity1'=21.25 'sim:it''s'=U")
        #expect(StatusFormatter.check(Self.report([Self.dry])).code == .success)
        #expect(
            StatusFormatter.check(Self.report([], sensors: [])) == (
                "SENSORWATCH OK - no alert fires; 0 sensors", .success
            ))
    }

    /// monitoring-plugins development guidelines: one line, `'label'=value[UOM];[warn];[crit];[min];[max]`,
    /// labels quoted with `'` doubled, `U` for an unknown value, `.` as the decimal mark.
    @Test func perfdataFollowsTheMonitoringPluginsGrammar() {
        let (line, _) = StatusFormatter.check(Self.report([Self.crit]))
        #expect(!line.contains("\n"))
        let perf = line.split(separator: "|", maxSplits: 1).last!.split(separator: " ")
        for item in perf {
            let text = String(item)
            #expect(text.hasPrefix("'"), "\(text)")
            let afterLabel = text[text.index(text.lastIndex(of: "'")!, offsetBy: 1)...]
            #expect(afterLabel.hasPrefix("="), "\(text)")
            let fields = afterLabel.dropFirst().split(separator: ";", omittingEmptySubsequences: false)
            #expect(fields.count <= 5)
            #expect(fields[0] == "U" || Double(fields[0]) != nil, "\(text)")
            for f in fields.dropFirst() { #expect(f.isEmpty || Double(f) != nil, "\(text)") }
        }
    }

    @Test func theFileIsOneObjectWithASensorOrAnAlertPerLine() {
        let gone = StatusSensor(
            id: "sim:a\"b", label: "", quantity: "temperature", unit: "°C", value: nil, time: nil, ok: false,
            error: "No such device")
        #expect(
            Self.report([Self.crit, Self.dry], sensors: [Self.cpu, gone]).json == #"""
                {"version":"0.1.0","pid":4242,"started":"2027-01-15T08:00:00.000Z","updated":"2027-01-15T08:01:00.000Z",
                "sensors":[
                {"id":"thermal:thermal_zone0","label":"x86_pkg_temp","quantity":"temperature","unit":"°C","value":97,"time":"2027-01-15T08:00:59.000Z","ok":true,"error":null,"limits":{"crit":100}},
                {"id":"sim:a\"b","label":"","quantity":"temperature","unit":"°C","value":null,"time":null,"ok":false,"error":"No such device","limits":null}],
                "alerts":[
                {"rule":"cpu-crit","sensor":"thermal:thermal_zone0","severity":"critical","state":"firing","since":"2027-01-15T08:00:50.000Z","value":97,"threshold":96,"condition":"above","limit":"crit","within":null,"unit":"°C","thresholdText":"96 °C (crit)"},
                {"rule":"dry-air","sensor":"hwmon:sht3x/humidity1","severity":"notice","state":"pending","since":"2027-01-15T08:00:55.000Z","value":21.25,"threshold":25,"condition":"below","limit":null,"within":null,"unit":"%RH","thresholdText":"25 %RH"}]}

                """#)
        #expect(
            Self.report([], sensors: []).json == """
                {"version":"0.1.0","pid":4242,"started":"2027-01-15T08:00:00.000Z","updated":"2027-01-15T08:01:00.000Z",
                "sensors":[],
                "alerts":[]}

                """)
    }

    /// Ids and names from outside (SPEC §19): control characters escaped, the check still one
    /// line with one `|`, each label quoted as the guidelines say and read back whole.
    static let hostile = StatusSensor(
        id: "hwmon:a b|c=d'e\n<0>x", label: "\u{1B}[2J\r", quantity: "temperature", unit: "°C", value: 91,
        time: t0 + 59,
        ok: true, error: nil, limits: StatusLimits(max: 80, crit: 90))

    @Test func hostileIdsKeepTheCheckOneLineAndItsPerfdataParseable() {
        let alert = StatusAlert(
            rule: "r|\u{1B}]52;c;aGk=\u{7}", sensor: Self.hostile.id, severity: .critical, state: .firing,
            since: Self.t0,
            value: 91, threshold: 90)
        let (line, code) = StatusFormatter.check(Self.report([alert], sensors: [Self.hostile, Self.cpu]))
        #expect(code == .checkCritical)
        #expect(
            line
                == #"SENSORWATCH CRITICAL - 1 critical: r\x7c\x1b]52;c;aGk=\x07 on hwmon:a b\x7cc=d'e\n<0>x (91 °C); 2 sensors"#
                + #" | 'hwmon:a b\x7cc=d''e\n<0>x'=91;80;90 'thermal:thermal_zone0'=97;;100"#)
        #expect(line.filter { $0 == "|" }.count == 1)
        #expect(!line.unicodeScalars.contains(where: DisplayText.needsEscape))
        let perf = Self.perfdata(String(line.split(separator: "|")[1]))
        #expect(perf.map(\.label) == [#"hwmon:a b\x7cc=d'e\n<0>x"#, "thermal:thermal_zone0"])
        #expect(perf.map(\.value) == ["91;80;90", "97;;100"])
        #expect(
            StatusFormatter.unknown("no status file at /tmp/x|y\n")
                == #"SENSORWATCH UNKNOWN - no status file at /tmp/x\x7cy\n"#)
    }

    @Test func hostileLabelsAndIdsAreEscapedInTheViewForAPerson() {
        let text = StatusFormatter.person(Self.report([], sensors: [Self.hostile]), now: Self.t0 + 61, localTime: clock)
        #expect(text.contains(#"  hwmon:a b|c=d'e\n<0>x  \x1b[2J\r  91 °C  max 80 °C, crit 90 °C  ok"#))
        #expect(!text.unicodeScalars.contains { DisplayText.needsEscape($0) && $0 != "\n" })
    }

    /// Performance data read as the guidelines write it: space-separated `label=value`, a
    /// label in `'` with `''` for a quote.
    private static func perfdata(_ text: String) -> [(label: String, value: String)] {
        var out: [(label: String, value: String)] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(where: { $0 != " " }) {
            rest = rest[start...]
            var label = ""
            if rest.first == "'" {
                rest = rest.dropFirst()
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if c == "'" {
                        guard rest.first == "'" else { break }
                        rest = rest.dropFirst()
                    }
                    label.append(c)
                }
            } else {
                label = String(rest.prefix { $0 != "=" })
                rest = rest.dropFirst(label.count)
            }
            guard rest.first == "=" else { return out }
            rest = rest.dropFirst()
            let value = rest.prefix { $0 != " " }
            out.append((label, String(value)))
            rest = rest.dropFirst(value.count)
        }
        return out
    }

    @Test func theFileReadsBackAsItWasWritten() throws {
        let report = Self.report([Self.crit, Self.dry])
        let back = try StatusReport.decode(Array(report.json.utf8), path: "status.json")
        #expect(back == report)
    }

    @Test func aSleepingSensorIsAsleepInTheFileAndForAPerson() throws {
        let gpu = StatusSensor(
            id: "hwmon:amdgpu-pci-0100/temp1", label: "edge", quantity: "temperature", unit: "°C", value: 48,
            time: Self.t0 + 5,
            ok: true, error: nil, asleep: true)
        let report = Self.report([], sensors: [Self.cpu, gpu])
        #expect(report.json.contains(#""error":null,"limits":null,"asleep":true}"#))
        #expect(try StatusReport.decode(Array(report.json.utf8), path: "status.json") == report)
        #expect(
            StatusFormatter.person(report, now: Self.t0 + 61, localTime: clock).hasSuffix(
                """
                  hwmon:amdgpu-pci-0100/temp1  edge          48 °C  -            asleep

                """))
    }

    @Test(arguments: [
        ("[]", "expected an object"),
        ("{ updated: \"2027-01-15T08:00:00Z\", sensors: [], alerts: [] }", "started: expected an RFC 3339 time"),
        (
            "{ started: \"2027-01-15T08:00:00Z\", updated: \"yesterday\", sensors: [], alerts: [] }",
            "updated: expected an RFC 3339 time"
        ),
        (
            "{ started: \"2027-01-15T08:00:00Z\", updated: \"2027-01-15T08:00:00Z\", alerts: [] }",
            "sensors: expected an array of objects"
        ),
        (
            "{ started: \"2027-01-15T08:00:00Z\", updated: \"2027-01-15T08:00:00Z\", sensors: [], alerts: [ {} ] }",
            "alerts[0]: needs rule, sensor, severity and state"
        ),
        ("{", "line 1, column 2: expected a key, found end of file"),
    ])
    func aBrokenFileSaysWhatIsWrong(_ text: String, _ message: String) {
        #expect(throws: StatusReport.DecodeError(message: message)) {
            try StatusReport.decode(Array(text.utf8), path: "s")
        }
    }

    @Test func rfc3339RoundTripsAndReadsOffsets() {
        #expect(RFC3339.format(Self.t0 + 0.25) == "2027-01-15T08:00:00.250Z")
        #expect(RFC3339.parse("2027-01-15T08:00:00.250Z") == Self.t0 + 0.25)
        #expect(RFC3339.parse("2027-01-15T09:30:00+01:30") == Self.t0)
        #expect(RFC3339.parse("2027-01-15 08:00:00Z") == Self.t0)
        #expect(RFC3339.parse("2027-01-15T08:00:00") == nil)
        #expect(RFC3339.parse("2027-13-15T08:00:00Z") == nil)
    }

    /// LIMITS shows every limit a sensor has, a fan's `min` and a voltage's bounds too
    /// (issue 34); a CJK label takes two cells a character, and the columns after it still
    /// line up (``DisplayWidth``).
    @Test func limitsOfFansAndVoltagesShowAndWideLabelsKeepTheColumns() {
        let fan = StatusSensor(
            id: "hwmon:nct6775-isa-0290/fan1", label: "CPU 风扇", quantity: "fan", unit: "rpm", value: 1200,
            time: Self.t0,
            ok: true, error: nil, limits: StatusLimits(values: ["min": 1500]))
        let volt = StatusSensor(
            id: "hwmon:nct6775-isa-0290/in0", label: "Vcore", quantity: "voltage", unit: "V", value: 1.0123456,
            time: Self.t0,
            ok: true, error: nil, limits: StatusLimits(values: ["min": 0.8, "max": 1.5, "lcrit": 0.7]))
        let text = StatusFormatter.person(Self.report([], sensors: [fan, volt]), now: Self.t0 + 61, localTime: clock)
        #expect(
            text.hasSuffix(
                """
                Sensors (2):
                  ID                           LABEL     VALUE     LIMITS                             HEALTH
                  hwmon:nct6775-isa-0290/fan1  CPU 风扇  1200 rpm  min 1500 rpm                       ok
                  hwmon:nct6775-isa-0290/in0   Vcore     1.012 V   min 0.8 V, lcrit 0.7 V, max 1.5 V  ok

                """), "\(text)")
    }
}
