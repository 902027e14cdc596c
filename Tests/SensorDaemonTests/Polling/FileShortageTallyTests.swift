#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
import SensorCore
@testable import SensorDaemon
import SensorRuntime
import SensorTestKit
import Testing

/// Sensors left unread for want of open files: one entry when the number changes, across
/// every source, none per sensor.
struct FileShortageTallyTests {
    @Test func oneEntryPerChangeOfTheNumberAcrossSources() {
        let log = MemoryLog()
        var tally = FileShortageTally(log: log)
        tally.update("a", unread: 3, total: { 10 })
        tally.update("a", unread: 3, total: { 10 })
        tally.update("b", unread: 0, total: { 15 })
        tally.update("b", unread: 2, total: { 15 })
        tally.update("a", unread: 0, total: { 15 })
        tally.update("b", unread: 0, total: { 15 })
        let messages = log.entries.map(\.message)
        #expect(messages.count == 4)
        #expect(messages[0].hasPrefix("3 of 10 sensors are left unread: Too many open files; the open-file limit is "))
        #expect(messages[1].hasPrefix("5 of 15 sensors are left unread: "))
        #expect(messages[2].hasPrefix("2 of 15 sensors are left unread: "))
        #expect(messages[3] == "all sensors are read again: enough open files")
        #expect(log.entries.map(\.level) == [.error, .error, .error, .notice])
        #expect(log.entries.allSatisfy { $0.kind == .openFileLimit })
    }

    /// A stop says nothing; the next change of the number is said without the stopped source.
    @Test func aSourceThatStoppedNoLongerCounts() {
        let log = MemoryLog()
        var tally = FileShortageTally(log: log)
        tally.update("a", unread: 1, total: { 3 })
        tally.update("b", unread: 2, total: { 6 })
        tally.remove("a")
        #expect(log.entries.count == 2)
        tally.update("b", unread: 0, total: { 3 })
        #expect(log.entries.map(\.message).last == "all sensors are read again: enough open files")
    }

    /// The daemon counts what its sources' polls left unread, as it commits them: no reader
    /// is wrapped for it.
    @DaemonActor
    @Test(.timeLimit(.minutes(1))) func theDaemonSaysOnceHowManySensorsItCouldNotOpen() async {
        let log = MemoryLog()
        let source = SourceConfiguration(kind: .simulated, interval: .seconds(1))
        let configuration = Configuration(path: "test.json5", sources: [source], rules: [])
        let env = Daemon<VirtualClock>.Environment(
            sink: MemoryAlertSink(), log: log, reload: { configuration },
            makeReader: { _ in ShortReader(faults: [0: .system(errno: EMFILE), 2: .system(errno: EIO)]) })
        let daemon = Daemon(configuration: configuration, environment: env, clock: VirtualClock())
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await log.written.until(1))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        let entries = log.entries.filter { $0.kind == .openFileLimit }
        #expect(entries.count == 1)
        #expect(entries.first?.message.hasPrefix("1 of 3 sensors are left unread: Too many open files; ") == true)
        #expect(entries.first?.location.file == "SensorDaemon/FileShortageTally.swift")
    }

    /// Three sensors, read with the given faults.
    struct ShortReader: SensorReader {
        var faults: [Int: ReadFault]
        var source: String { "sim" }
        func discover() -> [SensorInfo] {
            (0..<3).map { SensorInfo(id: SensorID(rawValue: "sim:s\($0)"), quantity: .temperature) }
        }
        func isolateBlockedRead(now: Timestamp) -> Bool { false }
        var leftOut: [String] { [] }

        func poll(at time: Timestamp) -> [SensorValues] {
            var values = SensorValues(time: time, capacity: 3)
            for i in 0..<3 {
                if let reason = faults[i] { values.appendFault(reason) } else { values.append(40) }
            }
            return [values]
        }
    }
}
