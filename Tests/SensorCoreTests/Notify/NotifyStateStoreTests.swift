import Testing
@testable import SensorCore
import SensorTestKit

/// notify.json: cursors per target and journal survive a restart; a bad file is not fatal.
struct NotifyStateStoreTests {
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
                    summary: "cpu-hot: 91.5 °C > 80 °C", value: "91.5", threshold: "80", startsAt: 1_764_680_000_250_000)
            ])
        #expect(loaded.state.firing(target: "exec \"/bin/a\"").isEmpty)
        try store.save(loaded.state)
        #expect(TemporaryDirectory.readFile(path) == Self.writtenByFoundation.replacingOccurrences(of: "\\/", with: "/") + "\n")
    }

    @Test func aCursorThatIsNotAStringIsReportedAtItsKeyPath() {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", #"{"version": 1, "targets": {"t": {"cursors": {"local": 5}}}}"#)
        #expect(
            NotifyStateStore(path: path).load().problem
                == path + ": not a valid notify state file (targets.t.cursors.local: expected a string, found a number); starting afresh")
    }

    @Test func aCorruptFileStartsAfreshAndSaysSo() {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", "{ not json")
        let loaded = NotifyStateStore(path: path).load()
        #expect(loaded.state == NotifyStateFile())
        #expect(
            loaded.problem
                == path + #": not a valid notify state file (line 1, column 7: expected ":" after a key, found "j"); starting afresh"#)
    }
}
