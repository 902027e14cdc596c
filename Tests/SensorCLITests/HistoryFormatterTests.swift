import SensorSystemd
import Testing
@testable import SensorCLI
@testable import SensorCore
struct HistoryFormatterTests {
    static let firing = JournalAlertRecord(
        realtimeMicroseconds: 1_795_558_400_012_345, host: "web1", kind: .firing, rule: "cpu-hot", severity: .warning,
        sensor: "thermal:thermal_zone0", label: "x86_pkg_temp", unit: "°C", value: 81.5, threshold: 80)
    static let stale = JournalAlertRecord(
        realtimeMicroseconds: 1_795_558_401_000_000, kind: .firing, rule: "silent", severity: nil,
        sensor: "sim:\"baro\"", value: nil, threshold: 30)

    static let trend = JournalAlertRecord(
        realtimeMicroseconds: 1_795_558_400_012_345, kind: .firing, rule: "cpu-trend", severity: .warning,
        sensor: "sim:cpu", label: "CPU", unit: "°C", value: 78, threshold: 90, condition: .predict,
        predicted: 93.21234)
    static let trendWithoutLine = JournalAlertRecord(
        realtimeMicroseconds: 1_795_558_400_012_345, kind: .resolved, rule: "cpu-trend", severity: .warning,
        sensor: "sim:cpu", label: "CPU", unit: "°C", value: 70, threshold: 90, condition: .predict)

    /// A value reads rounded as `run` and `status` print it (issue 34), the JSON keeps every
    /// digit; a `stale` threshold is a duration, not `5 °C`.
    @Test func valuesAreRoundedAndAStaleThresholdIsADuration() {
        let noisy = JournalAlertRecord(
            realtimeMicroseconds: 0, kind: .firing, rule: "sim-cpu-hot", severity: .warning, sensor: "sim:cpu",
            unit: "°C", value: 86.11947304015845, threshold: 80, condition: .above)
        #expect(
            HistoryFormatter.line(noisy, time: "T")
                == "T - sim-cpu-hot firing sim:cpu 86.119 °C threshold 80 °C [warning]")
        #expect(HistoryFormatter.json(noisy).contains(#""value":86.11947304015845"#))
        let stale = JournalAlertRecord(
            realtimeMicroseconds: 0, kind: .firing, rule: "silent", severity: .warning, sensor: "sim:outdoor",
            unit: "°C", value: nil, threshold: 5, condition: .stale)
        #expect(HistoryFormatter.line(stale, time: "T") == "T - silent firing sim:outdoor - threshold 5s [warning]")
    }

    @Test func predictRecordsShowThePrediction() {
        #expect(
            HistoryFormatter.line(Self.trend, time: "T")
                == "T - cpu-trend firing sim:cpu (CPU) 78 °C threshold 90 °C predicted 93.212 °C [warning]")
        #expect(
            HistoryFormatter.line(Self.trendWithoutLine, time: "T")
                == "T - cpu-trend resolved sim:cpu (CPU) 70 °C threshold 90 °C [warning]")
        #expect(
            HistoryFormatter.json(Self.trend)
                == #"{"time":"2026-11-24T22:13:20.012345Z","host":"","event":"firing","rule":"cpu-trend","sensor":"sim:cpu","label":"CPU","severity":"warning","value":78,"threshold":90,"predicted":93.21234,"unit":"°C"}"#
        )
        #expect(HistoryFormatter.json(Self.trendWithoutLine).contains(#""threshold":90,"predicted":null,"unit""#))
    }

    /// Anyone may have written the journal's fields (SPEC §19): the line shows them escaped,
    /// JSON as JSON escapes them.
    @Test func journalFieldsWithControlCharactersAreOneEscapedLine() {
        let forged = JournalAlertRecord(
            realtimeMicroseconds: 1_795_558_400_012_345, host: "h\u{1B}]0;t\u{7}", kind: .firing, rule: "r\r",
            severity: .critical, sensor: "hwmon:x/temp1", label: "\u{1B}[2J\n<0>forged", unit: "°C\u{9B}", value: 91,
            threshold: 80)
        #expect(
            HistoryFormatter.line(forged, time: "T")
                == #"T h\x1b]0;t\x07 r\r firing hwmon:x/temp1 (\x1b[2J\n<0>forged) 91 °C\u{9b} threshold 80 °C\u{9b} [critical]"#
        )
        #expect(HistoryFormatter.json(forged).contains(#""host":"h\u001b]0;t\u0007","event":"firing","rule":"r\r""#))
        #expect(HistoryFormatter.json(forged).contains(#""label":"\u001b[2J\n<0>forged""#))
    }

    @Test func lineShowsTimeHostRuleEventSensorValueThresholdSeverity() {
        #expect(
            HistoryFormatter.line(Self.firing, time: "2026-11-24 22:13:20")
                == "2026-11-24 22:13:20 web1 cpu-hot firing thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C threshold 80 °C [warning]"
        )
        #expect(HistoryFormatter.line(Self.stale, time: "T") == "T - silent firing sim:\"baro\" - threshold 30")
    }

    @Test func linesPadTheHostColumnToTheLongestHost() {
        var db = Self.firing
        db.host = "db-primary"
        db.kind = .resolved
        #expect(
            HistoryFormatter.lines([Self.firing, db, Self.stale], time: { _ in "T" }) == [
                "T web1       cpu-hot firing thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C threshold 80 °C [warning]",
                "T db-primary cpu-hot resolved thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C threshold 80 °C [warning]",
                "T -          silent firing sim:\"baro\" - threshold 30",
            ])
        #expect(HistoryFormatter.lines([], time: { _ in "T" }).isEmpty)
    }

    @Test func jsonIsOneObjectWithUTCTimeAndAlwaysAHost() {
        #expect(
            HistoryFormatter.json(Self.firing)
                == #"{"time":"2026-11-24T22:13:20.012345Z","host":"web1","event":"firing","rule":"cpu-hot","sensor":"thermal:thermal_zone0","label":"x86_pkg_temp","severity":"warning","value":81.5,"threshold":80,"unit":"°C"}"#
        )
        #expect(
            HistoryFormatter.json(Self.stale)
                == #"{"time":"2026-11-24T22:13:21.000000Z","host":"","event":"firing","rule":"silent","sensor":"sim:\"baro\"","label":"","severity":null,"value":null,"threshold":30,"unit":""}"#
        )
    }

    @Test func aLimitRulesEventNamesItsLimitAfterTheThreshold() {
        var hot = Self.firing
        hot.threshold = 100
        hot.limit = "crit"
        #expect(
            HistoryFormatter.line(hot, time: "T")
                == "T web1 cpu-hot firing thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C threshold 100 °C (crit) [warning]"
        )
        #expect(HistoryFormatter.json(hot).hasSuffix(#""threshold":100,"limit":"crit","unit":"°C"}"#))
    }
}
