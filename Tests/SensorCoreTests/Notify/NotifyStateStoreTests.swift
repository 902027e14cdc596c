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

    @Test func aCorruptFileStartsAfreshAndSaysSo() {
        let files = TemporaryDirectory()
        let path = files.write("notify.json", "{ not json")
        let loaded = NotifyStateStore(path: path).load()
        #expect(loaded.state == NotifyStateFile())
        #expect(loaded.problem == path + ": not a valid notify state file; starting afresh")
    }
}
