#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorRuntime
import SensorTestKit
import Testing

struct StateStoreTests {
    static let alerts = [
        PersistedAlert(
            rule: "cpu-hot", sensor: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature,
            since: 1_795_000_000.25, severity: .warning, value: 81.5, threshold: 80, condition: .above),
        PersistedAlert(
            rule: "silent", sensor: "sim:baro", quantity: .pressure, since: 1_795_000_100,
            severity: .notice, value: nil, threshold: 30, condition: .stale),
    ]
    // 2026-11-24T22:13:20Z
    static let now = WallTime(seconds: 1_795_558_400)

    @Test func savedAlertsLoadBackUnchanged() throws {
        let dir = TemporaryDirectory()
        let store = StateStore(directory: dir.root)
        try store.save(Self.alerts.reversed())
        let result = store.load(now: Self.now)
        #expect(result.alerts == Self.alerts)
        #expect(result.problem == nil)
        #expect(dir.names() == ["state.json"])
    }

    /// A state.json as today's main wrote it (Foundation's JSONEncoder, pretty-printed,
    /// sorted keys, `\/` escapes), verbatim: an upgrade keeps the firing alerts.
    static let writtenByFoundation = #"""
        {
          "alerts" : [
            {
              "condition" : "above",
              "label" : "x86_pkg_temp",
              "quantity" : "temperature",
              "rule" : "cpu-hot",
              "sensor" : "thermal:thermal_zone0",
              "severity" : "warning",
              "since" : 1764680000.25,
              "threshold" : 80,
              "value" : 91.5
            },
            {
              "condition" : "stale",
              "label" : "",
              "quantity" : "humidity",
              "rule" : "silent",
              "sensor" : "sim:a\/b",
              "severity" : "critical",
              "since" : 1764680001.123456,
              "threshold" : 30
            }
          ],
          "version" : 1
        }
        """#

    @Test func aFileWrittenByTheFoundationEncoderStillLoads() {
        let dir = TemporaryDirectory()
        dir.write("state.json", Self.writtenByFoundation + "\n")
        let result = StateStore(directory: dir.root).load(now: Self.now)
        #expect(result.problem == nil)
        #expect(
            result.alerts == [
                PersistedAlert(
                    rule: "cpu-hot", sensor: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature,
                    since: 1_764_680_000.25, severity: .warning, value: 91.5, threshold: 80, condition: .above),
                PersistedAlert(
                    rule: "silent", sensor: "sim:a/b", quantity: .humidity, since: 1_764_680_001.123456,
                    severity: .critical, value: nil, threshold: 30, condition: .stale),
            ])
    }

    @Test func theFileIsWrittenAsTheFoundationEncoderWroteIt() throws {
        let dir = TemporaryDirectory()
        let store = StateStore(directory: dir.root)
        dir.write("state.json", Self.writtenByFoundation)
        try store.save(store.load(now: Self.now).alerts)
        // Only the needless `\/` escape differs.
        #expect(
            TemporaryDirectory.readFile(dir.path("state.json")) == Self.writtenByFoundation.replacingOccurrences(
                of: "\\/", with: "/") + "\n")
    }

    @Test(arguments: [
        ("{\"version\":1,\"alerts\":[{\"rule\":\"a\"}]}", "alerts[0].sensor: required key is missing"),
        (
            "{\"version\":1,\"alerts\":[{\"rule\":\"a\",\"sensor\":\"s\",\"quantity\":\"temperature\",\"since\":\"now\",\"severity\":\"warning\",\"threshold\":1,\"condition\":\"above\"}]}",
            "alerts[0].since: expected a number, found a string"
        ),
        (
            "{\"version\":1,\"alerts\":[{\"rule\":\"a\"",
            "line 1, column 35: expected \",\" or \"}\" after a value, found end of file"
        ),
    ])
    func aBadFileSaysWhereItIsBad(content: String, reason: String) {
        let dir = TemporaryDirectory()
        dir.write("state.json", content)
        let result = StateStore(directory: dir.root).load(now: Self.now)
        #expect(
            result.problem
                == "\(dir.root)/state.json: not a valid state file (\(reason)); moved to "
                + "\(dir.root)/state.json.corrupt-20261124T221320Z, starting without kept alert state")
    }

    @Test func missingFileIsAnEmptyStateAndNoProblem() {
        let dir = TemporaryDirectory()
        let result = StateStore(directory: dir.root).load(now: Self.now)
        #expect(result == StateStore.LoadResult(alerts: []))
    }

    @Test(arguments: [
        ("garbage", "this is not json"),
        ("empty", ""),
        ("truncated", "{\"version\":1,\"alerts\":[{\"rule\":\"cpu-hot\",\"sens"),
        ("wrong shape", "{\"version\":1,\"alerts\":{}}"),
        ("unknown version", "{\"version\":99,\"alerts\":[]}"),
    ])
    func badFileIsSetAsideAndReported(name: String, content: String) {
        let dir = TemporaryDirectory()
        dir.write("state.json", content)
        let result = StateStore(directory: dir.root).load(now: Self.now)
        #expect(result.alerts.isEmpty)
        #expect(result.problem != nil)
        #expect(result.setAsidePath == dir.root + "/state.json.corrupt-20261124T221320Z")
        #expect(dir.names() == ["state.json.corrupt-20261124T221320Z"])
    }

    @Test func secondBadFileInTheSameSecondGetsItsOwnName() {
        let dir = TemporaryDirectory()
        let store = StateStore(directory: dir.root)
        dir.write("state.json", "x")
        _ = store.load(now: Self.now)
        dir.write("state.json", "y")
        let result = store.load(now: Self.now)
        #expect(result.setAsidePath == dir.root + "/state.json.corrupt-20261124T221320Z-2")
    }

    @Test func unreadableFileIsSetAsideAndReported() {
        let dir = TemporaryDirectory()
        // A directory in the file's place fails the read with EISDIR, even for root.
        mkdir(dir.root + "/state.json", 0o755)
        let result = StateStore(directory: dir.root).load(now: Self.now)
        #expect(result.alerts.isEmpty)
        #expect(result.problem?.contains("cannot read") == true)
        #expect(dir.names() == ["state.json.corrupt-20261124T221320Z"])
    }

    @Test func saveIntoAReadOnlyDirectoryThrowsWithPathAndErrno() {
        // sysfs refuses new files even to root, unlike a chmod-ed directory.
        let store = StateStore(directory: "/sys")
        #expect(
            throws: StateStore.SaveError.write(
                SystemError(.open, path: "/sys/state.json.tmp", errno: EACCES))
        ) {
            try store.save(Self.alerts)
        }
    }

    @Test func saveCreatesAMissingDirectoryAndLeavesNoTempFile() throws {
        let dir = TemporaryDirectory()
        let store = StateStore(directory: dir.root + "/sub")
        try store.save(Self.alerts)
        try store.save([])
        #expect(store.load(now: Self.now).alerts == [])
        #expect(dir.names() == ["sub"])
        unlink(store.path)
    }

    @Test(
        arguments: [
            (nil, "/var/lib/sensorwatch"),
            ("", "/var/lib/sensorwatch"),
            ("/var/lib/sensorwatch", "/var/lib/sensorwatch"),
            ("/var/lib/private/sensorwatch:/var/lib/other", "/var/lib/private/sensorwatch"),
        ] as [(String?, String)])
    func directoryComesFromTheFirstStateDirectoryEntry(env: String?, expected: String) {
        #expect(StateStore.directory(fromEnvironment: env) == expected)
    }

    @Test func persistedAlertKeepsAFiringEvent() {
        let event = AlertEvent(
            time: .seconds(12), kind: .firing, rule: "cpu-hot", ruleIndex: 0,
            sensor: SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature),
            severity: .warning, value: 81.5, threshold: 80, condition: .above)
        let kept = PersistedAlert(firing: event, since: 1_795_000_000.25)
        #expect(kept == Self.alerts[0])
        #expect(kept.key == AlertKey(rule: "cpu-hot", sensor: "thermal:thermal_zone0"))
        #expect(kept.sensorInfo == event.sensor)
    }
}
