@testable import SensorRuntime
import SensorTestKit
import Testing

@Suite(.timeLimit(.minutes(1)))
struct EventCountTests {
    @Test func aWaitForACountReachedAlreadyReturnsAtOnce() async {
        let count = EventCount()
        count.increment()
        count.increment()
        #expect(await count.until(2))
        #expect(await count.until(0))
        #expect(count.value == 2)
    }

    @Test func aWaitResumesAtTheIncrementThatReachesItsCount() async {
        let count = EventCount()
        let waiting = Task { await count.until(3) ? count.value : nil }
        for _ in 1...3 { count.increment() }
        #expect(await waiting.value(within: .seconds(10)) == 3)
    }

    @Test func aCountNeverReachedIsFalseAfterTheLimit() async {
        let count = EventCount()
        #expect(await count.until(1, within: .milliseconds(10)) == false)
    }

    @Test func aCancelledWaitEnds() async {
        let count = EventCount()
        let waiting = Task { await count.until(1, within: .seconds(600)) }
        waiting.cancel()
        #expect(await waiting.value(within: .seconds(10)) != nil)
        // The cancelled wait left nothing behind: a later increment resumes nobody twice.
        count.increment()
        #expect(await count.until(1))
    }
}
