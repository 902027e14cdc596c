import Dispatch
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The state-file writer: the rule loop hands values over without waiting for the disk, a
/// stop flushes, and nothing submitted before a flush is left unwritten (SPEC §8).
@Suite(.timeLimit(.minutes(1)))
struct LatestValueWriterTests {
    /// Records writes; a write can be held (like a slow disk) until the test lets it go.
    final class Disk: Sendable {
        private let log = Mutex<[Int]>([])
        private let holding = Mutex(false)
        private let gate = DispatchSemaphore(value: 0)
        /// How many writes have begun (a test waits for them: `begun.until(n)`).
        let begun = EventCount()

        var written: [Int] { log.withLock { $0 } }
        /// How many writes have begun.
        var writesBegun: Int { begun.value }

        /// Makes the next writes wait in `write` until ``release()``.
        func hold() { holding.withLock { $0 = true } }

        func release() {
            holding.withLock { $0 = false }
            gate.signal()
        }

        func write(_ value: Int) {
            begun.increment()
            if holding.withLock({ $0 }) { gate.wait() }
            log.withLock { $0.append(value) }
        }
    }

    static func writer(_ disk: Disk) -> LatestValueWriter<Int> {
        LatestValueWriter("a test") { disk.write($0) }
    }

    @Test func flushAfterSubmitAlwaysFindsTheLastValueWritten() async {
        let disk = Disk()
        let writer = Self.writer(disk)
        // The writer's thread takes each value as it comes; a flush returns only once the
        // last one submitted before it is on the disk.
        for i in 1...2000 {
            writer.submit(i)
            await writer.flush()
            guard disk.written.last == i else {
                Issue.record("after flush of \(i) the last write was \(String(describing: disk.written.last))")
                break
            }
        }
        await writer.close()
    }

    @Test func aFlushWithNothingSubmittedReturnsAtOnce() async {
        let disk = Disk()
        let writer = Self.writer(disk)
        await writer.flush()
        #expect(disk.writesBegun == 0)
        await writer.close()
    }

    /// A writer whose first write (of 1) has begun and is held on the disk.
    static func writingOne() async -> (Disk, LatestValueWriter<Int>) {
        let disk = Disk()
        disk.hold()
        let writer = Self.writer(disk)
        writer.submit(1)
        #expect(await disk.begun.until(1))
        return (disk, writer)
    }

    @Test func aBurstDuringAWriteCoalescesToTheNewestValue() async {
        let (disk, writer) = await Self.writingOne()
        for i in 2...100 { writer.submit(i) }
        disk.release()
        await writer.flush()
        #expect(disk.written == [1, 100])
        await writer.close()
    }

    @Test func aFlushWaitsForTheWriteInProgress() async {
        let (disk, writer) = await Self.writingOne()
        let flushed = Task.detached { await writer.flush() }
        #expect(await flushed.value(within: .milliseconds(50)) == nil, "flush returned during the write")
        disk.release()
        #expect(await flushed.value(within: .seconds(10)) != nil)
        #expect(disk.written == [1])
        await writer.close()
    }

    @Test func closeWritesThePendingValueAndEndsTheThread() async {
        let disk = Disk()
        let writer = Self.writer(disk)
        #expect(writer.isRunning)
        #expect(writer.threadFailure == nil)
        writer.submit(7)
        await writer.close()
        #expect(!writer.isRunning)
        #expect(disk.written.last == 7)
    }

    @Test func afterCloseASubmitIsWrittenAtOnce() async {
        let disk = Disk()
        let writer = Self.writer(disk)
        await writer.close()
        writer.submit(8)
        #expect(disk.written == [8])
        await writer.close()
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
