@testable import SensorConfig
@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import Testing

/// What an exec target receives: the JSON object, the environment, and the filters.
struct NotifyEventTests {
    static let firing = NotifyEvent(
        realtimeMicroseconds: 1_764_628_330_250_000, kind: .firing, rule: "cpu-hot", severity: .warning,
        sensor: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: "temperature", value: 81.5, unit: "°C",
        threshold: 80, host: "rack1",
        message: "cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C")

    @Test func jsonHasTheDocumentedKeysInOrder() {
        #expect(
            Self.firing.json == """
                {"time":"2025-12-01T22:32:10.250000Z","event":"firing","rule":"cpu-hot","severity":"warning",\
                "sensor":"thermal:thermal_zone0","label":"x86_pkg_temp","quantity":"temperature","value":81.5,\
                "unit":"°C","threshold":80,"host":"rack1",\
                "message":"cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C"}
                """)
    }

    @Test func staleFiringHasANullValueAndPredictedAppearsOnlyWhenPresent() {
        var e = Self.firing
        e.value = nil
        e.predicted = 97
        #expect(e.json.contains(",\"value\":null,"))
        #expect(e.json.hasSuffix(",\"predicted\":97}"))
        #expect(!Self.firing.json.contains("predicted"))
    }

    /// A limit rule's event names its limit (SPEC §16, `ALERT_LIMIT`) as a string.
    @Test func aLimitRulesEventCarriesTheLimitsName() {
        var e = Self.firing
        e.limit = "crit"
        #expect(e.json.hasSuffix(",\"limit\":\"crit\"}"))
        #expect(!Self.firing.json.contains("limit"))
    }

    /// A resolved because the sensor went (SPEC §20, `ALERT_REASON=gone`) says so.
    @Test func aResolvedForAGoneSensorHasReasonSensorGone() {
        var e = Self.firing
        e.kind = .resolved
        e.value = nil
        e.sensorGone = true
        #expect(e.json.contains(",\"value\":null,"))
        #expect(e.json.hasSuffix(",\"reason\":\"sensor gone\"}"))
        #expect(!Self.firing.json.contains("reason"))
    }

    @Test func environmentIsTheJournalsFieldsWithHostTimeAndPath() {
        #expect(
            Self.firing.environment == [
                "ALERT_RULE=cpu-hot", "ALERT_STATE=firing", "ALERT_SEVERITY=warning", "ALERT_THRESHOLD=80",
                "SENSOR_ID=thermal:thermal_zone0", "SENSOR_LABEL=x86_pkg_temp", "SENSOR_QUANTITY=temperature",
                "SENSOR_VALUE=81.5", "SENSOR_UNIT=°C",
                "ALERT_MESSAGE=cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C",
                "ALERT_HOST=rack1", "ALERT_TIME=2025-12-01T22:32:10.250000Z",
                "ALERT_SUMMARY=", "ALERT_DESCRIPTION=", "ALERT_RUNBOOK=",
                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            ])
    }

    /// SPEC §21: the rule's annotations end the JSON object where set and are always in the
    /// environment (empty when unset), so a script can rely on the names.
    @Test func annotationsGoToTheJsonWhereSetAndAlwaysToTheEnvironment() {
        var e = Self.firing
        e.annotations = RuleAnnotations(
            description: "Fan \"A\" stalls\nfirst check the filter", runbook: "https://wiki.example/cpu")
        #expect(
            e.json.hasSuffix(
                #","message":"cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C","#
                    + #""description":"Fan \"A\" stalls\nfirst check the filter","runbook":"https://wiki.example/cpu"}"#
            ))
        #expect(!e.json.contains("summary"))
        #expect(e.environment.contains("ALERT_SUMMARY="))
        #expect(e.environment.contains("ALERT_DESCRIPTION=Fan \"A\" stalls\nfirst check the filter"))
        #expect(e.environment.contains("ALERT_RUNBOOK=https://wiki.example/cpu"))
        e.annotations.summary = "CPU hot"
        #expect(e.json.contains(#""summary":"CPU hot","description""#))
        #expect(e.environment.contains("ALERT_SUMMARY=CPU hot"))
    }

    /// Alertmanager gets `summary` (the rule's, else the message), `description` and
    /// `runbook_url` (SPEC §21).
    @Test func alertmanagerAnnotationsAreSummaryDescriptionAndRunbookUrl() {
        var e = Self.firing
        let plain = AlertmanagerAlert(e, startsAt: 0).json(endsAt: 0)
        #expect(
            plain.contains(
                #""annotations":{"summary":"cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C","#
                    + #""value":"81.5","threshold":"80"}"#))
        e.annotations = RuleAnnotations(
            summary: "CPU hot", description: "Clean the fan", runbook: "https://wiki.example/cpu")
        #expect(
            AlertmanagerAlert(e, startsAt: 0).json(endsAt: 0) == """
                {"labels":{"alertname":"cpu-hot","sensor":"thermal:thermal_zone0","severity":"warning","host":"rack1"},\
                "annotations":{"summary":"CPU hot","value":"81.5","threshold":"80","description":"Clean the fan",\
                "runbook_url":"https://wiki.example/cpu"},\
                "startsAt":"1970-01-01T00:00:00Z","endsAt":"1970-01-01T00:00:00Z"}
                """)
    }

    /// A `notify.json` written before annotations existed still loads its firing set.
    @Test func aKeptAlertWithoutAnnotationsDecodes() throws {
        let old =
            #"{"rule":"r","sensor":"s","severity":"","host":"h","summary":"m","value":"1","threshold":"2","startsAt":5}"#
        let file = #"{"targets":{"t":{"cursors":{},"firing":["# + old + "]}},\"version\":1}"
        let alert = try NotifyStateFile.decode(Array(file.utf8), path: "notify.json").firing(target: "t").first
        #expect(alert?.description == nil && alert?.runbook == nil && alert?.summary == "m")
    }

    @Test func rfc3339LeavesOutAZeroFraction() {
        #expect(RFC3339.format(microseconds: 0) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.format(microseconds: 1_000_007) == "1970-01-01T00:00:01.000007Z")
    }

    @Test func everyFilterPresentMustMatch() throws {
        let e = Self.firing
        #expect(NotifyFilter().matches(e))
        #expect(NotifyFilter(severities: [.warning, .critical]).matches(e))
        #expect(!NotifyFilter(severities: [.critical]).matches(e))
        #expect(NotifyFilter(rule: try Glob("cpu-*"), host: try Glob("rack?")).matches(e))
        #expect(!NotifyFilter(rule: try Glob("cpu-*"), host: try Glob("db*")).matches(e))
        #expect(!NotifyFilter(sensor: try Glob("hwmon:*")).matches(e))
        var unknown = e
        unknown.severity = nil
        #expect(!NotifyFilter(severities: [.warning]).matches(unknown))
    }
}
