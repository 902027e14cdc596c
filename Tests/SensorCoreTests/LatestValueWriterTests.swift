import Dispatch
import Synchronization
import Testing
@testable import SensorCore
import SensorTestKit

/// The state-file writer: the rule loop hands values over without waiting for the disk, a
/// stop flushes, and nothing submitted before a flush is left unwritten (SPEC §8).
@Suite(.timeLimit(.minutes(1)))
struct LatestValueWriterTests {
    /// Records writes; a write can be held (like a slow disk) until the test lets it go.
    final class Disk: Sendable {
        private let log = Mutex<[Int]>([])
        private let holding = Mutex(false)
        private let gate = DispatchSemaphore(value: 0)
        private let entered = Mutex(0)

        var written: [Int] { log.withLock { $0 } }
        /// How many writes have begun.
        var writesBegun: Int { entered.withLock { $0 } }

        /// Makes the next writes wait in `write` until ``release()``.
        func hold() { holding.withLock { $0 = true } }

        func release() {
            holding.withLock { $0 = false }
            gate.signal()
        }

        func write(_ value: Int) {
            entered.withLock { $0 += 1 }
            if holding.withLock({ $0 }) { gate.wait() }
            log.withLock { $0.append(value) }
        }
    }

    static func writer(_ disk: Disk) -> LatestValueWriter<Int> {
        LatestValueWriter { disk.write($0) }
    }

    @Test func flushAfterSubmitAlwaysFindsTheLastValueWritten() {
        let disk = Disk()
        let writer = Self.writer(disk)
        defer { writer.finish() }
        // The writer's thread races every flush (it wakes for each submit); whichever takes
        // the value writes it before the flush can return.
        for i in 1...5000 {
            writer.submit(i)
            writer.flush()
            guard disk.written.last == i else {
                Issue.record("after flush of \(i) the last write was \(String(describing: disk.written.last))")
                return
            }
        }
    }

    /// A writer whose first write (of 1) has begun and is held on the disk.
    static func writingOne() async -> (Disk, LatestValueWriter<Int>) {
        let disk = Disk()
        disk.hold()
        let writer = Self.writer(disk)
        writer.submit(1)
        #expect(await eventually { disk.writesBegun == 1 })
        return (disk, writer)
    }

    @Test func aBurstDuringAWriteCoalescesToTheNewestValue() async {
        let (disk, writer) = await Self.writingOne()
        defer { writer.finish() }
        for i in 2...100 { writer.submit(i) }
        disk.release()
        writer.flush()
        #expect(disk.written == [1, 100])
    }

    @Test func aFlushWaitsForTheWriteInProgress() async {
        let (disk, writer) = await Self.writingOne()
        defer { writer.finish() }
        let flushed = Task.detached { writer.flush() }
        #expect(await flushed.value(within: .milliseconds(50)) == nil, "flush returned during the write")
        disk.release()
        #expect(await flushed.value(within: .seconds(10)) != nil)
        #expect(disk.written == [1])
    }

    @Test func finishWritesThePendingValueAndEndsTheThread() {
        let disk = Disk()
        let writer = Self.writer(disk)
        #expect(writer.isRunning)
        writer.submit(7)
        writer.finish()
        #expect(!writer.isRunning)
        #expect(disk.written.last == 7)
    }

    @Test func afterFinishASubmitIsWrittenAtOnce() {
        let disk = Disk()
        let writer = Self.writer(disk)
        writer.finish()
        writer.submit(8)
        #expect(disk.written == [8])
        writer.finish()
        #expect(disk.written == [8])
    }

    /// As the ledger does it: on the daemon's actor.
    @DaemonActor static func close(_ writer: LatestValueWriter<Int>) async { await writer.close() }

    /// Any other work on the daemon's actor.
    @DaemonActor static func written(_ disk: Disk) -> [Int] { disk.written }

    @Test func closeWaitsForTheWriteWithoutBlockingTheDaemonsExecutor() async {
        let (disk, writer) = await Self.writingOne()
        // The ledger closes its writer at stop on the daemon's one executor thread.
        let closing = Task(executorPreference: DaemonActor.taskExecutor) { await Self.close(writer) }
        // While the write is held on the disk, the executor still runs other work.
        let other = Task(executorPreference: DaemonActor.taskExecutor) { await Self.written(disk) }
        #expect(await other.value(within: .seconds(10)) == [], "the executor was blocked by close")
        #expect(await closing.value(within: .milliseconds(50)) == nil, "close returned during the write")
        disk.release()
        #expect(await closing.value(within: .seconds(10)) != nil)
        #expect(disk.written == [1])
        #expect(!writer.isRunning)
    }
}
