@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing

/// Skipped look-alikes are counted, and warned about once a minute at most on the injected
/// clock (SPEC §17).
@DaemonActor
struct JournalLookAlikeTallyTests {
    @Test func warnsAtTheFirstThenOnceAMinuteWithTheCountSince() {
        let clock = VirtualClock()
        let log = MemoryLog()
        let tally = JournalLookAlikeTally(clock: clock, log: log)
        tally.skipped(cursor: "a", reason: "written by _UID=65534")
        #expect(log.entries.count == 1)
        #expect(log.entries[0].level == .warning)
        #expect(log.entries[0].message.contains("skipped 1 look-alike alert entry the daemon did not write"))
        #expect(log.entries[0].message.contains("the last: written by _UID=65534"))
        for i in 0..<500 { tally.skipped(cursor: "b\(i)", reason: "written by _UID=1000") }
        clock.advance(by: .seconds(59))
        tally.skipped(cursor: "c", reason: "written by _UID=1000")
        #expect(log.entries.count == 1)
        clock.advance(by: .seconds(1))
        tally.skipped(cursor: "d", reason: "written by _UID=1001")
        #expect(log.entries.count == 2)
        #expect(log.entries[1].message.contains("skipped 502 look-alike alert entries the daemon did not write"))
        #expect(log.entries[1].message.contains("(503 since the start; the last: written by _UID=1001)"))
        #expect(tally.total == 503)
    }

    @Test func anEntrySkippedByEveryLaneCountsOnce() {
        let clock = VirtualClock()
        let tally = JournalLookAlikeTally(clock: clock, log: MemoryLog())
        for _ in 0..<3 {
            tally.skipped(cursor: "s=1;i=1", reason: "r")
            tally.skipped(cursor: "s=1;i=2", reason: "r")
        }
        #expect(tally.total == 2)
    }

    @Test func theCursorsKeptAreBounded() {
        let tally = JournalLookAlikeTally(clock: VirtualClock(), log: MemoryLog())
        let n = JournalLookAlikeTally<VirtualClock>.remembered
        for i in 0...n { tally.skipped(cursor: "\(i)", reason: "r") }
        // The first cursor has been forgotten, the last ones are still known.
        tally.skipped(cursor: "0", reason: "r")
        tally.skipped(cursor: "\(n)", reason: "r")
        #expect(tally.total == n + 2)
    }
}
