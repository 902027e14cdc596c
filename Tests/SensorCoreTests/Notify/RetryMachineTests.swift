import Testing
@testable import SensorCore

/// The back-off of one target (SPEC §17): 1 s, 2 s, 4 s … at most 5 min, as long as it takes.
struct RetryMachineTests {
    @Test func delaysDoubleFromOneSecondUpToFiveMinutes() {
        let delays = (1...12).map { RetryMachine.delay(afterRetries: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map { Duration.seconds($0) })
        #expect(RetryMachine.delay(afterRetries: 1000) == .seconds(300))
    }

    @Test func aDeliveredEventIsCommittedAtOnce() {
        var m = RetryMachine()
        #expect(m.handle(.event, now: .zero) == [.deliver])
        #expect(m.handle(.outcome(.delivered), now: .zero) == [.commit])
        #expect(m.state == .idle)
    }

    @Test func aRetryWaitsThenDeliversAgainAndTheWaitGrows() {
        var m = RetryMachine()
        _ = m.handle(.event, now: .zero)
        #expect(m.handle(.outcome(.retry("exit status 75")), now: .seconds(10))
            == [.logRetry("exit status 75", after: .seconds(1)), .wait(until: .seconds(11))])
        // A timer before the deadline (a stray wake-up) changes nothing.
        #expect(m.handle(.timer, now: .seconds(10.5)) == [])
        #expect(m.handle(.timer, now: .seconds(11)) == [.deliver])
        #expect(m.handle(.outcome(.retry("timeout")), now: .seconds(12))
            == [.logRetry("timeout", after: .seconds(2)), .wait(until: .seconds(14))])
        #expect(m.handle(.timer, now: .seconds(14)) == [.deliver])
        #expect(m.handle(.outcome(.delivered), now: .seconds(15)) == [.commit])
        #expect(m.state == .idle)
    }

    @Test func aFailureIsLoggedAndCommittedNotRetried() {
        var m = RetryMachine()
        _ = m.handle(.event, now: .zero)
        #expect(m.handle(.outcome(.failed("exit status 3")), now: .zero) == [.logFailure("exit status 3"), .commit])
        #expect(m.handle(.timer, now: .seconds(100)) == [])
    }
}
