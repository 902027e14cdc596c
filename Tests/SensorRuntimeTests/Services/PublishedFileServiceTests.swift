import Observation
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// The one service behind the metrics and status files: a model change lets the file write,
/// a write that says so moves the timer, the timer fires when its wait is over, and a stop
/// removes the file.
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct PublishedFileServiceTests {
    /// A file that writes at every model change and whose timer waits 10 s after a write.
    @DaemonActor
    final class Recorder: PublishedFile {
        let data = SensorData()
        let clock: VirtualClock
        var events: [String] = []
        /// The timer's firings, for a test to wait for.
        let timerFirings = EventCount()
        var lastWrite: VirtualClock.Instant?
        init(clock: VirtualClock) { self.clock = clock }

        func observe() { _ = data.latestSecond }
        func modelChanged() -> Bool {
            events.append("write at \(clock.now.offset)")
            lastWrite = clock.now
            return true
        }
        var timerWait: Duration? {
            lastWrite.map { clock.now.duration(to: $0.advanced(by: .seconds(10))) } ?? .seconds(10)
        }
        func timerFired() {
            events.append("timer at \(clock.now.offset)")
            lastWrite = clock.now
            timerFirings.increment()
        }
        func remove() { events.append("removed") }
    }

    @Test func aWriteMovesTheTimerTheTimerFiresWithoutWritesAndStopRemoves() async {
        let clock = VirtualClock()
        let file = Recorder(clock: clock)
        let service = PublishedFileService(file: file, clock: clock)
        let run = Task { @DaemonActor in await service.run() }
        #expect(await clock.untilSleepers(1))
        #expect(clock.sleepDeadlines == [VirtualClock.Instant(offset: .seconds(10))])
        clock.advance(by: .seconds(4))
        let list = SensorList(source: "sim", sensors: [SensorInfo(id: "sim:a", label: "", quantity: .temperature)])
        file.data.commit(PollCycle(list: list, readings: SensorValues(time: .seconds(4), values: [1])))
        // The write at 4 s moved the timer to 14 s.
        #expect(await service.modelWakes.until(1))
        #expect(await clock.until { $0.sleepDeadlines == [VirtualClock.Instant(offset: .seconds(14))] })
        clock.advance(by: .seconds(10))
        #expect(await file.timerFirings.until(1))
        #expect(file.events.last == "timer at 14.0 seconds")
        run.cancel()
        await run.value
        #expect(file.events == ["write at 0.0 seconds", "write at 4.0 seconds", "timer at 14.0 seconds", "removed"])
    }
}
