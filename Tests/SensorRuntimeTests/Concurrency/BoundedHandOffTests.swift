import SensorTestKit
import Synchronization
import Testing

@testable import SensorRuntime

/// The bounded hand-off from a producer thread to one consumer, a task or a thread: every
/// element once and in order, never more than the capacity held, and an end that wakes the
/// consumer. Each wait is bounded, so a lost wake-up fails the test instead of hanging it.
@Suite(.timeLimit(.minutes(1)))
struct BoundedHandOffTests {
    struct Broke: Error, Equatable {}

    /// Starts a producer thread that sends `0..<count` and then finishes with `error`.
    static func produce(_ handOff: BoundedHandOff<Int>, count: Int, error: Broke? = nil) throws {
        try DetachedThread.start("test producer") {
            for i in 0..<count {
                guard handOff.waitForRoom() else { return }
                handOff.send(i)
            }
            handOff.finish(error)
        }
    }

    @Test func aConsumerThreadGetsEveryElementInOrderThenTheEnd() async throws {
        let handOff = BoundedHandOff<Int>(capacity: 2)
        try Self.produce(handOff, count: 200)
        let got = Mutex<[Int]?>(nil)
        let done = EventCount()
        try DetachedThread.start("test consumer") {
            var taken: [Int] = []
            while let i = try? handOff.next() { taken.append(i) }
            got.withLock { $0 = taken }
            done.increment()
        }
        #expect(await done.until(1))
        #expect(got.withLock { $0 } == Array(0..<200))
    }

    /// An element the consumer took is let go of at the producer's next send at the latest,
    /// though the producer always stays ahead: memory is the capacity's, not the run's
    /// (`simulate`'s stretches of samples, the live stream's messages).
    @Test func aTakenElementIsLetGoOfWhileTheProducerStaysAhead() throws {
        final class Box: Sendable {}
        let handOff = BoundedHandOff<Box>(capacity: 2)
        #expect(handOff.waitForRoom())
        handOff.send(Box())
        #expect(handOff.waitForRoom())
        handOff.send(Box())
        weak var taken: Box?
        for _ in 0..<50 {
            taken = try handOff.next()
            #expect(taken != nil)
            #expect(handOff.waitForRoom())
            handOff.send(Box())
            #expect(taken == nil, "a taken element is still held")
        }
        #expect(handOff.buffered == 2)
    }

    @Test func aProducerAheadOfItsConsumerWaitsWithAtMostTheCapacityHeld() async throws {
        let handOff = BoundedHandOff<Int>(capacity: 3)
        try Self.produce(handOff, count: 50)
        #expect(await handOff.fullWaits.until(1))
        #expect(handOff.buffered <= 3)
        var taken: [Int] = []
        while let i = try await handOff.receive() { taken.append(i) }
        #expect(taken == Array(0..<50))
    }

    @Test func theProducersErrorReachesAConsumerThreadOnceAfterWhatIsHeld() throws {
        let handOff = BoundedHandOff<Int>(capacity: 4)
        #expect(handOff.waitForRoom())
        handOff.send(7)
        handOff.finish(Broke())
        #expect(try handOff.next() == 7)
        #expect(throws: Broke()) { try handOff.next() }
        #expect(try handOff.next() == nil)
    }

    @Test func cancellingEndsTheConsumerThreadsWaitAndStopsTheProducer() async throws {
        let handOff = BoundedHandOff<Int>(capacity: 1)
        let ended = EventCount()
        try DetachedThread.start("test consumer") {
            // Nothing is ever sent: only the cancel ends this wait.
            if (try? handOff.next()) == .some(nil) { ended.increment() }
        }
        handOff.cancel()
        #expect(await ended.until(1))
        #expect(!handOff.waitForRoom())
    }
}
