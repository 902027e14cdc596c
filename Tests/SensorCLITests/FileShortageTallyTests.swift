#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCLI
import SensorCore
import SensorRuntime
import Testing

/// Sensors left unread for want of open files: one entry when the number changes, across
/// every source, none per sensor.
struct FileShortageTallyTests {
    static let shortage = ReadFault.system(errno: EMFILE)

    @Test func oneEntryPerChangeOfTheNumberAcrossSources() {
        let log = MemoryLog()
        let tally = FileShortageTally(log: log)
        let a = tally.register(), b = tally.register()
        tally.update(a, unread: 3, total: 10)
        tally.update(a, unread: 3, total: 10)
        tally.update(b, unread: 0, total: 5)
        tally.update(b, unread: 2, total: 5)
        tally.update(a, unread: 0, total: 10)
        tally.update(b, unread: 0, total: 5)
        let messages = log.entries.map(\.message)
        #expect(messages.count == 4)
        #expect(messages[0].hasPrefix("3 of 10 sensors are left unread: Too many open files; the open-file limit is "))
        #expect(messages[1].hasPrefix("5 of 15 sensors are left unread: "))
        #expect(messages[2].hasPrefix("2 of 15 sensors are left unread: "))
        #expect(messages[3] == "all sensors are read again: enough open files")
        #expect(log.entries.map(\.level) == [.error, .error, .error, .notice])
        #expect(log.entries.allSatisfy { $0.kind == .openFileLimit })
    }

    @Test func aReaderThatIsGoneNoLongerCounts() {
        let log = MemoryLog()
        let tally = FileShortageTally(log: log)
        do {
            let reader = FileShortageReader(
                FakeReader(faults: [0: Self.shortage, 1: .system(errno: EIO)]), tally: tally)
            _ = reader.poll(at: .zero)
        }
        let fresh = FileShortageReader(FakeReader(faults: [:]), tally: tally)
        _ = fresh.poll(at: .zero)
        #expect(log.entries.map(\.message).first?.hasPrefix("1 of 3 sensors are left unread") == true)
        #expect(log.entries.map(\.message).dropFirst() == ["all sensors are read again: enough open files"])
    }

    @Test func onlyTheShortageOfDescriptorsCounts() {
        #expect(OpenFileLimit.isShortage(.system(errno: EMFILE)))
        #expect(OpenFileLimit.isShortage(.system(errno: ENFILE)))
        #expect(!OpenFileLimit.isShortage(.system(errno: EIO)))
        #expect(!OpenFileLimit.isShortage("not a number: \"x\""))
        // By the code, not the words: a reason that only reads like the shortage is none.
        #expect(!OpenFileLimit.isShortage(.other(ErrnoText.named(EMFILE))))
    }

    @Test func theLimitIsSaidAsAPersonReadsIt() {
        #expect(OpenFileLimit(soft: 256, hard: 256).description == "256 (also the hard limit)")
        #expect(OpenFileLimit(soft: 1024, hard: 524288).description == "1024 (hard limit 524288)")
    }

    /// The counting wrapper must pass the stall watch's question on: else a hung file of
    /// the wrapped reader would stall its whole source again.
    @Test func theWrapperPassesIsolationOfABlockedReadOn() {
        let tally = FileShortageTally(log: MemoryLog())
        #expect(FileShortageReader(FakeReader(faults: [:], blocked: true), tally: tally).isolateBlockedRead(now: .zero))
        #expect(
            !FileShortageReader(FakeReader(faults: [:], blocked: false), tally: tally).isolateBlockedRead(now: .zero))
    }

    /// Three sensors, read with the given faults.
    struct FakeReader: SensorReader {
        var faults: [Int: ReadFault]
        var source: String { "thermal" }
        func discover() -> [SensorInfo] { [] }
        var blocked = false
        func isolateBlockedRead(now: Timestamp) -> Bool { blocked }
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
