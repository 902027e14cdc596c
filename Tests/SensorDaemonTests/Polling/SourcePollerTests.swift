import Dispatch
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The poller of one source, with a reader that hangs and a time the test moves. A poller
/// that stops producing cycles fails at the time limit (cancelling the test ends the
/// `cycles` iteration) instead of hanging the run.
@Suite(.timeLimit(.minutes(1)))
struct SourcePollerTests {
    /// A started poller at a 1 s interval with the shipped stall watch on `clock`, and the
    /// cycles it delivers.
    static func watchedPoller(
        _ reader: any SensorReader, clock: VirtualClock
    ) throws -> (SourcePoller, AsyncStream<PollCycle>) {
        let (cycles, delivered) = AsyncStream.makeStream(of: PollCycle.self)
        let poller = SourcePoller(
            reader: reader, interval: .seconds(1), pacer: PollPacer(clock: clock, start: clock.now), watchStalls: true
        ) { _, cycles in
            for cycle in cycles { delivered.yield(cycle) }
        }
        try poller.start()
        return (poller, cycles)
    }

    /// A poll hanging in the kernel must not stop the source's stale checks (SPEC §5, §8).
    @Test func hangingPollGetsStandInTicksThenItsOwnCycleWithoutTick() async throws {
        let reader = HangingReader()
        let clock = VirtualClock()
        let (cycles, delivered) = AsyncStream.makeStream(of: PollCycle.self)
        let poller = SourcePoller(
            reader: reader, interval: .seconds(1), pacer: PollPacer(clock: clock, start: clock.now)
        ) { _, cycles in
            for cycle in cycles { delivered.yield(cycle) }
        }
        try poller.start()
        #expect(await reader.started.until(1))
        clock.advance(by: .milliseconds(500))
        poller.tickIfStalled()
        clock.advance(by: .seconds(2))
        poller.tickIfStalled()
        poller.tickIfStalled()
        reader.releaseOne()
        var seen: [String] = []
        for await cycle in cycles {
            seen.append(
                "t=\(cycle.time.seconds) tick=\(cycle.tick) samples=\(cycle.samples.count) sensors=\(cycle.sensors.count)"
            )
            if seen.count == 3 { break }
        }
        poller.stop()
        reader.releaseOne()
        #expect(
            seen == [
                "t=1.0 tick=true samples=0 sensors=1",
                "t=2.0 tick=true samples=0 sensors=1",
                "t=0.0 tick=false samples=1 sensors=1",
            ])
    }

    @Test func pollsThatKeepUpGetNoStandInTicks() async throws {
        let reader = HangingReader()
        let clock = VirtualClock()
        let (cycles, delivered) = AsyncStream.makeStream(of: PollCycle.self)
        let poller = SourcePoller(
            reader: reader, interval: .seconds(1), pacer: PollPacer(clock: clock, start: clock.now)
        ) { _, cycles in
            for cycle in cycles { delivered.yield(cycle) }
        }
        try poller.start()
        #expect(await reader.started.until(1))
        reader.releaseOne()
        var iterator = cycles.makeAsyncIterator()
        let first = await iterator.next()
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .milliseconds(900))
        poller.tickIfStalled()
        clock.advance(by: .milliseconds(100))
        #expect(await reader.started.until(2))
        reader.releaseOne()
        let second = await iterator.next()
        poller.stop()
        #expect(first?.tick == true && first?.time.seconds == 0)
        #expect(second?.tick == true && second?.samples.count == 1)
    }

    /// A poll stuck in one file is given up at the stall watch's look: a new thread polls at
    /// the next tick, the stuck one delivers nothing when its read returns, and the source
    /// rediscovers then (SPEC §8). On a manual clock, through the shipped watch.
    @Test func aPollStuckInAFileIsTakenOverAtTheNextTickAndTheStuckThreadDeliversNothing() async throws {
        let reader = FirstPollHangsReader()
        let clock = VirtualClock()
        let (poller, cycles) = try Self.watchedPoller(reader, clock: clock)
        #expect(await reader.polled.until(1))
        clock.advance(by: SourcePoller.look)
        #expect(await reader.gaveUp.until(1))
        var seen: [String] = []
        var iterator = cycles.makeAsyncIterator()
        clock.advance(by: .seconds(1) - SourcePoller.look)
        if let c = await iterator.next() {
            seen.append("t=\(c.time.seconds) tick=\(c.tick) values=\(c.samples.compactMap(\.value))")
        }
        reader.release()
        #expect(await reader.returns.until(1))
        clock.advance(by: .seconds(1))
        if let c = await iterator.next() {
            seen.append("t=\(c.time.seconds) tick=\(c.tick) values=\(c.samples.compactMap(\.value))")
        }
        poller.stop()
        #expect(seen == ["t=1.0 tick=true values=[60.0]", "t=2.0 tick=true values=[60.0]"])
        // The first discovery, the new thread's, and the one after the stuck read returned.
        #expect(reader.discoveries == 3)
    }

    /// The shipped stall watch on a manual clock: a poll still running when its alarm
    /// expires counts as stalled, and its missed ticks are stood in for on the watch's thread.
    @Test func theStallWatchStandsInForTheTicksOfAPollThatHangsPastItsPatience() async throws {
        let reader = HangingReader()
        let clock = VirtualClock()
        let (poller, cycles) = try Self.watchedPoller(reader, clock: clock)
        #expect(await reader.started.until(1))
        var iterator = cycles.makeAsyncIterator()
        clock.advance(by: .milliseconds(999))
        // The watch looked at 0.999 s, found no tick missed yet and re-armed for the next:
        // moved on before that, the clock would leave the re-armed alarm behind.
        #expect(await clock.until { $0.alarmDeadlines == [VirtualClock.Instant(offset: .seconds(1))] })
        clock.advance(by: .milliseconds(1))
        let first = await iterator.next()
        clock.advance(by: .seconds(1))
        let second = await iterator.next()
        reader.releaseOne()
        let own = await iterator.next()
        poller.stop()
        #expect(
            first.map { "t=\($0.time.seconds) tick=\($0.tick) samples=\($0.samples.count)" }
                == "t=1.0 tick=true samples=0")
        #expect(
            second.map { "t=\($0.time.seconds) tick=\($0.tick) samples=\($0.samples.count)" }
                == "t=2.0 tick=true samples=0")
        #expect(
            own.map { "t=\($0.time.seconds) tick=\($0.tick) samples=\($0.samples.count)" }
                == "t=0.0 tick=false samples=1")
    }
}

/// A reader whose first poll hangs until released and can be given up; later polls read 60.
private final class FirstPollHangsReader: SensorReader {
    let source = "thermal"
    private let info = SensorInfo(id: "thermal:thermal_zone0", label: "", quantity: .temperature)
    private let gate = DispatchSemaphore(value: 0)
    private let state = Mutex((polls: 0, discoveries: 0, blocked: false, givenUp: false, returned: false))

    /// Its polls, its giving up and the stuck poll's return, for a test to wait for.
    let polled = EventCount(), gaveUp = EventCount(), returns = EventCount()
    var polls: Int { state.withLock { $0.polls } }
    var discoveries: Int { state.withLock { $0.discoveries } }
    var givenUp: Bool { state.withLock { $0.givenUp } }
    var returned: Bool { state.withLock { $0.returned } }
    func release() { gate.signal() }

    func discover() -> [SensorInfo] {
        state.withLock { $0.discoveries += 1 }
        return [info]
    }

    func poll(at time: Timestamp) -> [SensorValues] {
        let first = state.withLock { s -> Bool in
            s.polls += 1
            s.blocked = s.polls == 1
            return s.blocked
        }
        polled.increment()
        if first {
            gate.wait()
            state.withLock {
                $0.blocked = false; $0.returned = true
            }
            returns.increment()
            return [SensorValues(time: time, values: [50])]
        }
        return [SensorValues(time: time, values: [60])]
    }

    var leftOut: [String] { [] }

    func isolateBlockedRead(now: Timestamp) -> Bool {
        let given = state.withLock { s in
            guard s.blocked, !s.givenUp else { return false }
            s.givenUp = true
            return true
        }
        if given { gaveUp.increment() }
        return given
    }
}
