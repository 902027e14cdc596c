#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorRuntime
import SensorTestKit
import Testing

/// The one kept-JSON-file store under state.json and notify.json: typed load problems, a bad
/// file set aside (never overwritten), a missing file the first start.
struct JSONFileStoreTests {
    static let now = WallTime(seconds: 1_795_558_400)

    @Test func aMissingFileIsTheFirstStartWithoutAProblem() {
        let dir = TemporaryDirectory()
        let loaded = JSONFileStore<StateFile>(path: dir.path("state.json")).load(now: Self.now)
        #expect(loaded.document == nil && loaded.problem == nil && loaded.setAsidePath == nil)
    }

    @Test func eachBadFileGivesItsTypedProblemAndIsSetAside() {
        let dir = TemporaryDirectory()
        let cases: [(String, JSONFileStore<StateFile>.LoadProblem)] = [
            (#"{"version": 7, "alerts": []}"#, .unknownVersion(7)),
            (#"{"version": 1}"#, .invalid("alerts: required key is missing")),
        ]
        for (text, expected) in cases {
            let path = dir.write("state.json", text)
            let loaded = JSONFileStore<StateFile>(path: path).load(now: Self.now)
            #expect(loaded.document == nil)
            #expect(loaded.problem == expected)
            #expect(loaded.setAsidePath.map { TemporaryDirectory.readFile($0) } == text)
            #expect(access(path, F_OK) != 0, "left in place")
            if let aside = loaded.setAsidePath { unlink(aside) }
        }
        // A directory where the file should be cannot be read: EISDIR, in words.
        mkdir(dir.path("state.json"), 0o700)
        let loaded = JSONFileStore<StateFile>(path: dir.path("state.json")).load(now: Self.now)
        #expect(loaded.problem == .unreadable(SystemError(.read, path: dir.path("state.json"), errno: EISDIR)))
        #expect(loaded.problem?.description == "cannot read: Is a directory")
    }

    @Test func whatIsSavedIsLoadedBack() throws {
        let dir = TemporaryDirectory()
        let store = JSONFileStore<StateFile>(path: dir.path("sub/state.json"))
        try store.save(StateFile(version: StateFile.currentVersion, alerts: []))
        #expect(store.load(now: Self.now).document == StateFile(version: 1, alerts: []))
    }
}
