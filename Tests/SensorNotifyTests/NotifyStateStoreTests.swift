#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Testing
@testable import SensorCore
@testable import SensorNotify
import SensorTestKit

/// notify.json: cursors per target and journal survive a restart; a bad file is not fatal.
struct NotifyStateStoreTests {
    /// 2026-11-24T22:13:20Z: the set-aside file's time.
    static let now = WallTime(seconds: 1_795_558_400)

    /// How a bad file's problem ends: set aside, the notifier starting afresh.
    static func setAside(_ path: String) -> String { "; moved to \(path).corrupt-20261124T221320Z, starting afresh" }

    @Test func cursorsRoundTripPerTargetAndJournal() throws {
        let files = TemporaryDirectory()
        let store = NotifyStateStore(path: files.path("state/notify.json"))
        #expect(store.load().state == NotifyStateFile())
        #expect(store.load().problem == nil)
        var state = NotifyStateFile()
        state.setCursor("s=1;i=2", target: "exec \"/bin/a\"", journal: "local")
        state.setCursor("s=1;i=9", target: "exec \"/bin/a\"", journal: "/var/log/journal/remote")
        try store.save(state)
        let loaded = store.load()
        #expect(loaded.problem == nil)
        #expect(loaded.state.cursor(target: "exec \"/bin/a\"", journal: "local") == "s=1;i=2")
        #expect(loaded.state.cursor(target: "exec \"/bin/a\"", journal: "/var/log/journal/remote") == "s=1;i=9")
        #expect(loaded.state.cursor(target: "exec \"/bin/b\"", journal: "local") == nil)
    }

    /// A notify.json as today's main wrote it (Foundation's JSONEncoder), verbatim.
    static let writtenByFoundation = #"""
        {
          "targets" : {
            "alertmanager \"http:\/\/127.0.0.1:9093\"" : {
              "cursors" : {
                "local" : "s=ab;i=3"
              },
              "firing" : [
                {
                  "host" : "box",
                  "rule" : "cpu-hot",
                  "sensor" : "thermal:thermal_zone0",
                  "severity" : "warning",
                  "startsAt" : 1764680000250000,
                  "summary" : "cpu-hot: 91.5 °C > 80 °C",
                  "threshold" : "80",
                  "value" : "91.5"
                }
              ]
            },
            "exec \"\/bin\/a\"" : {
              "cursors" : {
                "\/var\/log\/journal\/remote" : "s=1;i=9",
                "local" : "s=1;i=2"
              }
            }
          },
          "version" : 1
        }
        """#

    @Test func aFileWrittenByTheFoundationEncoderStillLoadsAndIsWrittenTheSame() throws {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", Self.writtenByFoundation + "\n")
        let store = NotifyStateStore(path: path)
        let loaded = store.load()
        #expect(loaded.problem == nil)
        let alertmanager = "alertmanager \"http://127.0.0.1:9093\""
        #expect(loaded.state.cursor(target: "exec \"/bin/a\"", journal: "/var/log/journal/remote") == "s=1;i=9")
        #expect(loaded.state.cursor(target: alertmanager, journal: "local") == "s=ab;i=3")
        #expect(
            loaded.state.firing(target: alertmanager) == [
                AlertmanagerAlert(
                    rule: "cpu-hot", sensor: "thermal:thermal_zone0", severity: "warning", host: "box",
                    summary: "cpu-hot: 91.5 °C > 80 °C", value: "91.5", threshold: "80", startsAt: 1_764_680_000_250_000
                )
            ])
        #expect(loaded.state.firing(target: "exec \"/bin/a\"").isEmpty)
        try store.save(loaded.state)
        #expect(TemporaryDirectory.readFile(path) == Self.writtenByFoundation.replacing("\\/", with: "/") + "\n")
    }

    /// A notify.json as coord's code wrote it (Foundation's JSONEncoder, the silences branch's
    /// Codable `NotifyEvent`), verbatim: held-back events per exec target and journal (one
    /// without severity or value, with `limit` and `predicted`, no annotations), an
    /// alertmanager target's silences and a firing alert with `description` and `runbook`.
    static let writtenByCoordWithHeldAndSilences = #"""
        {
          "targets" : {
            "alertmanager \"http:\/\/127.0.0.1:9093\"" : {
              "cursors" : {
                "local" : "s=ab;i=3"
              },
              "firing" : [
                {
                  "description" : "Clean the fan",
                  "host" : "box",
                  "rule" : "cpu-hot",
                  "runbook" : "https:\/\/wiki.example\/cpu",
                  "sensor" : "thermal:thermal_zone0",
                  "severity" : "warning",
                  "startsAt" : 1764680000250000,
                  "summary" : "CPU hot",
                  "threshold" : "80",
                  "value" : "81.5"
                }
              ],
              "silences" : {
                "sw-1764680000-1" : "a1b2c3d4-0000-4000-8000-000000000001",
                "sw-1764680100-2" : "a1b2c3d4-0000-4000-8000-000000000002"
              }
            },
            "exec \"\/bin\/a\"" : {
              "cursors" : {
                "\/var\/log\/journal\/remote" : "s=1;i=9",
                "local" : "s=1;i=2"
              },
              "held" : {
                "\/var\/log\/journal\/remote" : [
                  {
                    "annotations" : {
                      "runbook" : "https:\/\/wiki.example\/cpu",
                      "summary" : "CPU hot"
                    },
                    "host" : "box",
                    "kind" : "firing",
                    "label" : "x86_pkg_temp",
                    "message" : "cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C",
                    "quantity" : "temperature",
                    "realtimeMicroseconds" : 1764680000250000,
                    "rule" : "cpu-hot",
                    "sensor" : "thermal:thermal_zone0",
                    "severity" : "warning",
                    "threshold" : 80,
                    "unit" : "°C",
                    "value" : 81.5
                  }
                ],
                "local" : [
                  {
                    "annotations" : {
                      "runbook" : "https:\/\/wiki.example\/cpu",
                      "summary" : "CPU hot"
                    },
                    "host" : "box",
                    "kind" : "firing",
                    "label" : "x86_pkg_temp",
                    "message" : "cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C",
                    "quantity" : "temperature",
                    "realtimeMicroseconds" : 1764680000250000,
                    "rule" : "cpu-hot",
                    "sensor" : "thermal:thermal_zone0",
                    "severity" : "warning",
                    "threshold" : 80,
                    "unit" : "°C",
                    "value" : 81.5
                  },
                  {
                    "annotations" : {

                    },
                    "host" : "box",
                    "kind" : "resolved",
                    "label" : "",
                    "limit" : "crit",
                    "message" : "fan-stale resolved",
                    "predicted" : 1.25,
                    "quantity" : "fan",
                    "realtimeMicroseconds" : 1764680060000000,
                    "rule" : "fan-stale",
                    "sensor" : "hwmon:nct6775-isa-0290\/fan1",
                    "threshold" : 120,
                    "unit" : "RPM"
                  }
                ]
              }
            }
          },
          "version" : 1
        }
        """#

    @Test func heldEventsAndSilencesWrittenByTheFoundationEncoderLoadAndRoundTrip() throws {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", Self.writtenByCoordWithHeldAndSilences + "\n")
        let store = NotifyStateStore(path: path)
        let loaded = store.load()
        #expect(loaded.problem == nil)
        let alertmanager = "alertmanager \"http://127.0.0.1:9093\""
        let exec = "exec \"/bin/a\""
        let hot = NotifyEvent(
            realtimeMicroseconds: 1_764_680_000_250_000, kind: .firing, rule: "cpu-hot", severity: .warning,
            sensor: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: "temperature", value: 81.5, unit: "°C",
            threshold: 80, host: "box",
            message: "cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C",
            annotations: RuleAnnotations(summary: "CPU hot", runbook: "https://wiki.example/cpu"))
        let fan = NotifyEvent(
            realtimeMicroseconds: 1_764_680_060_000_000, kind: .resolved, rule: "fan-stale", severity: nil,
            sensor: "hwmon:nct6775-isa-0290/fan1", quantity: "fan", value: nil, unit: "RPM", threshold: 120,
            host: "box",
            message: "fan-stale resolved", predicted: 1.25, limit: "crit")
        #expect(loaded.state.held(target: exec, journal: "local") == [hot, fan])
        #expect(loaded.state.held(target: exec, journal: "/var/log/journal/remote") == [hot])
        #expect(loaded.state.cursor(target: exec, journal: "local") == "s=1;i=2")
        #expect(
            loaded.state.silences(target: alertmanager) == [
                "sw-1764680000-1": "a1b2c3d4-0000-4000-8000-000000000001",
                "sw-1764680100-2": "a1b2c3d4-0000-4000-8000-000000000002",
            ])
        #expect(
            loaded.state.firing(target: alertmanager) == [
                AlertmanagerAlert(
                    rule: "cpu-hot", sensor: "thermal:thermal_zone0", severity: "warning", host: "box",
                    summary: "CPU hot",
                    value: "81.5", threshold: "80", startsAt: 1_764_680_000_250_000, description: "Clean the fan",
                    runbook: "https://wiki.example/cpu")
            ])
        #expect(loaded.state.held(target: alertmanager, journal: "local").isEmpty)
        #expect(loaded.state.silences(target: exec).isEmpty)
        // Written back the same, but for `/` unescaped and an empty object as `{}`.
        try store.save(loaded.state)
        let expected = Self.writtenByCoordWithHeldAndSilences.replacing("\\/", with: "/")
            .replacing("{\n\n            }", with: "{}")
        #expect(TemporaryDirectory.readFile(path) == expected + "\n")
        #expect(store.load().state == loaded.state)
    }

    @Test func aHeldEventWithoutItsKindIsReportedAtItsKeyPath() {
        let files = TemporaryDirectory()
        let path = files.write(
            "notify.json",
            #"{"version": 1, "targets": {"t": {"cursors": {}, "held": {"local": [{"annotations": {}, "host": "h", "#
                + #""label": "", "message": "m", "quantity": "", "realtimeMicroseconds": 1, "rule": "r", "sensor": "s", "unit": ""}]}}}}"#
        )
        #expect(
            NotifyStateStore(path: path).load(now: Self.now).problem
                == path + ": not a valid notify state file (targets.t.held.local[0].kind: required key is missing)"
                + Self.setAside(path))
    }

    @Test func aSilenceIdThatIsNotAStringIsReportedAtItsKeyPath() {
        let files = TemporaryDirectory()
        let path = files.write(
            "notify.json", #"{"version": 1, "targets": {"t": {"cursors": {}, "silences": {"sw-1": 7}}}}"#)
        #expect(
            NotifyStateStore(path: path).load(now: Self.now).problem
                == path + ": not a valid notify state file (targets.t.silences.sw-1: expected a string, found a number)"
                + Self.setAside(path))
    }

    @Test func aCursorThatIsNotAStringIsReportedAtItsKeyPath() {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", #"{"version": 1, "targets": {"t": {"cursors": {"local": 5}}}}"#)
        #expect(
            NotifyStateStore(path: path).load(now: Self.now).problem
                == path + ": not a valid notify state file (targets.t.cursors.local: expected a string, found a number)"
                + Self.setAside(path))
    }

    @Test func aCorruptFileStartsAfreshAndSaysSo() {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", "{ not json")
        let loaded = NotifyStateStore(path: path).load(now: Self.now)
        #expect(loaded.state == NotifyStateFile())
        // Set aside for a person to look at, not overwritten by the first save.
        #expect(TemporaryDirectory.readFile(path + ".corrupt-20261124T221320Z") == "{ not json")
        #expect(access(path, F_OK) != 0)
        #expect(
            loaded.problem
                == path + #": not a valid notify state file (line 1, column 7: expected ":" after a key, found "j")"#
                + Self.setAside(path))
    }
}
