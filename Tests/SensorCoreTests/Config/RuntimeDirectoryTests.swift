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
