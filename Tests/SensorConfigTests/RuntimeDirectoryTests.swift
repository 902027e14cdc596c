#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
import SensorRuntime
import SensorTestKit
import Testing

/// SPEC §19's rule for where `run` keeps its runtime files and where clients look.
@Suite struct RuntimeDirectoryTests {
    @Test func theUnitsRuntimeDirectoryWinsItsFirstEntry() {
        let d = RuntimeDirectory.daemon(
            runtimeDirectory: "/run/sensorwatch-x:/run/other", isRoot: false, xdgRuntimeDirectory: "/run/user/1000")
        #expect(d?.path == "/run/sensorwatch-x")
        #expect(d?.file("status.json") == "/run/sensorwatch-x/status.json")
    }

    @Test func rootOutsideSystemdUsesRunSensorwatch() {
        let d = RuntimeDirectory.daemon(runtimeDirectory: nil, isRoot: true, xdgRuntimeDirectory: "/run/user/0")
        #expect(d?.path == "/run/sensorwatch")
    }

    @Test func aUserOutsideSystemdUsesXDGRuntimeDir() {
        let d = RuntimeDirectory.daemon(runtimeDirectory: nil, isRoot: false, xdgRuntimeDirectory: "/run/user/1000")
        #expect(d?.path == "/run/user/1000/sensorwatch")
        #expect(d?.file("live.sock") == "/run/user/1000/sensorwatch/live.sock")
    }

    @Test func aUserWithoutXDGRuntimeDirHasNoDirectory() {
        #expect(RuntimeDirectory.daemon(runtimeDirectory: nil, isRoot: false, xdgRuntimeDirectory: nil) == nil)
        #expect(RuntimeDirectory.daemon(runtimeDirectory: nil, isRoot: false, xdgRuntimeDirectory: "relative") == nil)
    }

    @Test func aUserClientAlsoLooksWhereTheSystemServiceKeepsItsFiles() {
        let c = RuntimeDirectory.clientCandidates(
            runtimeDirectory: nil, isRoot: false, xdgRuntimeDirectory: "/run/user/1000")
        #expect(c.map(\.path) == ["/run/user/1000/sensorwatch", "/run/sensorwatch"])
        let root = RuntimeDirectory.clientCandidates(runtimeDirectory: nil, isRoot: true, xdgRuntimeDirectory: nil)
        #expect(root.map(\.path) == ["/run/sensorwatch"])
    }

    /// Outside systemd nobody made the directory (the tour's `make run` as root): `run`
    /// makes it, 0755 whatever the umask, and a second call finds it (issue 34).
    @Test func theDaemonMakesAMissingDirectoryReadableToAll() {
        let dir = TemporaryDirectory()
        let runtime = RuntimeDirectory(path: dir.path("run/sensorwatch"))
        #expect(
            runtime.makeIfMissing()
                == "cannot make the runtime directory \(dir.path("run/sensorwatch")): No such file or directory")
        _ = dir.write("run/.keep", "")
        let old = umask(0o077)
        defer { umask(old) }
        #expect(runtime.makeIfMissing() == nil)
        var st = stat()
        #expect(stat(runtime.path, &st) == 0 && st.st_mode & 0o777 == 0o755)
        #expect(runtime.makeIfMissing() == nil)
    }

    @Test func countsSayTheirNounOnceOrMore() {
        #expect(
            [
                Count.of(1, "source"), Count.of(2, "source"), Count.of(0, "rule"),
                Count.of(1, "entry", plural: "entries"),
                Count.of(3, "entry", plural: "entries"),
            ] == ["1 source", "2 sources", "0 rules", "1 entry", "3 entries"])
    }
}
