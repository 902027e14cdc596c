import Glibc
@testable import SensorCLI
import SensorCore
import SensorIPMI
import SensorRuntime
import SensorTestKit
import Testing

/// A BMC's event log records in the journal and their position in the state file (SPEC §23).
@Suite struct JournalEventLogSinkTests {
    @Test func fieldsAndPriorityOfARecord() {
        let e = IPMIEventLogEntry(
            recordID: 7, timestamp: 1_765_000_000, sensor: "Inlet Temp", event: "Upper Critical - going high",
            severity: .critical)
        let fields = JournalEventLogSink.fields(e, bmc: "bmc-r1-01", sensor: e.sensor, event: e.event)
        #expect(fields.map(\.0) == ["IPMI_BMC", "IPMI_SEL_ID", "IPMI_SEL_TIME", "IPMI_SEL_SENSOR", "IPMI_SEL_EVENT"])
        #expect(
            fields.map(\.1) == [
                "bmc-r1-01", "7", RFC3339.format(1_765_000_000), "Inlet Temp", "Upper Critical - going high",
            ])
        #expect(JournalEventLogSink.level(.critical).priority == 2)
        #expect(JournalEventLogSink.level(.warning).priority == 4)
        #expect(JournalEventLogSink.level(.nominal).priority == 5)
        #expect(JournalEventLogSink.level(.unknown).priority == 5)
    }

    @Test func theStateFileKeepsEachBMCsPositionBesideTheAlerts() {
        let dir = TemporaryDirectory()
        let store = StateStore(directory: dir.root)
        let problems = WriteProblemLog(log: MemoryLog(), failed: { $0 }, recovered: "ok")
        let keeper = StateKeeper(store: store, loaded: store.load(), problems: problems)
        #expect(keeper.position(of: "b1") == nil)
        keeper.keep(position: 12, bmc: "b1")
        keeper.save(alerts: [])
        keeper.keep(position: 3, bmc: "b2")
        let again = store.load()
        #expect(again.eventLog == ["b1": 12, "b2": 3])
        #expect(again.problem == nil)
        let restarted = StateKeeper(store: store, loaded: again, problems: problems)
        #expect(restarted.position(of: "b1") == 12)
    }
}

/// Where SDR caches go (SPEC §23: `$STATE_DIRECTORY`), and for a user who may not write there.
@Suite struct SDRCacheDirectoryTests {
    @Test func theStateDirectoryElseADirectoryOfTheUsersOwn() {
        let dir = TemporaryDirectory()
        #expect(SourceReaders.cacheDirectory(state: dir.root) == dir.root)
        #expect(
            SourceReaders.cacheDirectory(state: "/proc/sensorwatch-cannot-be") == "/tmp/sensorwatch-sdr-\(getuid())")
    }
}
