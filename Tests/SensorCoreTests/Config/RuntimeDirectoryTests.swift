#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import Testing

/// SPEC §19's rule for where `run` keeps its runtime files and where clients look.
@Suite struct RuntimeDirectoryTests {
    @Test func theUnitsRuntimeDirectoryWinsItsFirstEntry() {
        let d = RuntimeDirectory.daemon(runtimeDirectory: "/run/sensorwatch-x:/run/other", isRoot: false, xdgRuntimeDirectory: "/run/user/1000")
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
        let c = RuntimeDirectory.clientCandidates(runtimeDirectory: nil, isRoot: false, xdgRuntimeDirectory: "/run/user/1000")
        #expect(c.map(\.path) == ["/run/user/1000/sensorwatch", "/run/sensorwatch"])
        let root = RuntimeDirectory.clientCandidates(runtimeDirectory: nil, isRoot: true, xdgRuntimeDirectory: nil)
        #expect(root.map(\.path) == ["/run/sensorwatch"])
    }
}

/// The daemon makes its runtime directory outside systemd.
@Suite struct RuntimeDirectoryCreateTests {
    @Test func createMakesAMissingDirectoryAndLeavesAnExistingOne() throws {
        let base = "/tmp/sw-rundir-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { rmdir(base + "/sensorwatch"); rmdir(base) }
        #expect(mkdir(base, 0o700) == 0)
        let dir = RuntimeDirectory(path: base + "/sensorwatch")
        #expect(dir.create() == nil)
        var st = stat()
        #expect(stat(dir.path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o755 & ~umaskValue())
        #expect(dir.create() == nil)
    }

    @Test func createSaysWhyInWords() {
        let problem = RuntimeDirectory(path: "/nonexistent-sw/sensorwatch").create()
        #expect(problem == "cannot make /nonexistent-sw/sensorwatch: No such file or directory")
    }

    private func umaskValue() -> mode_t {
        let old = umask(0)
        umask(old)
        return old
    }
}
