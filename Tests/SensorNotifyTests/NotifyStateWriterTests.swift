import Glibc
@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing

#if canImport(Glibc)
#endif

/// notify.json is written off the delivery's path (docs/decisions.md), through the one
/// latest-value writer: what was submitted is on disk once a flush returns, the latest
/// state last; failures are logged once, and their end once (``WriteProblemLog``).
struct NotifyStateWriterTests {
    static func state(_ cursor: String) -> NotifyStateFile {
        var s = NotifyStateFile()
        s.setCursor(cursor, target: "exec /bin/true", journal: "local")
        return s
    }

    /// The notifier's writer, as it makes it.
    static func writer(_ store: NotifyStateStore, log: any DaemonLog) -> LatestValueWriter<NotifyStateFile> {
        store.writer(log: log)
    }

    @Test func theLatestSubmittedStateIsOnDiskWhenAFlushReturns() async {
        let directory = TemporaryDirectory(prefix: "sensorwatch-notify-state")
        let store = NotifyStateStore(path: directory.path("state/notify.json"))
        let writer = Self.writer(store, log: MemoryLog())
        for i in 1...200 { writer.submit(Self.state("s=\(i)")) }
        await writer.flush()
        #expect(store.load().state == Self.state("s=200"))
        #expect(store.load().problem == nil)
        await writer.close()
    }

    @Test func aFailingWriteIsLoggedOnceAndItsEndOnce() async {
        let directory = TemporaryDirectory(prefix: "sensorwatch-notify-state")
        let log = MemoryLog()
        let writer = Self.writer(NotifyStateStore(path: directory.path("state/notify.json")), log: log)
        // A file where the state directory should be: every write fails.
        close(open(directory.path("state"), O_CREAT | O_WRONLY, 0o600))
        writer.submit(Self.state("s=1"))
        await writer.flush()
        writer.submit(Self.state("s=2"))
        await writer.flush()
        unlink(directory.path("state"))
        writer.submit(Self.state("s=3"))
        await writer.flush()
        let lines = log.entries.map { "\($0.level) \($0.message)" }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("warning cannot keep notification cursors: ") == true)
        #expect(lines.first?.hasSuffix("; a restart may send events again") == true)
        #expect(lines.last == "notice notification cursors are kept again")
        await writer.close()
    }
}
