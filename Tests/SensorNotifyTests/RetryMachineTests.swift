@testable import SensorConfig
@testable import SensorNotify
import Testing

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
        #expect(
            m.handle(.outcome(.retry("exit status 75")), now: .seconds(10))
                == [.logRetry("exit status 75", after: .seconds(1)), .wait(until: .seconds(11))])
        // A timer before the deadline (a stray wake-up) changes nothing.
        #expect(m.handle(.timer, now: .seconds(10.5)) == [])
        #expect(m.handle(.timer, now: .seconds(11)) == [.deliver])
        #expect(
            m.handle(.outcome(.retry("timeout")), now: .seconds(12))
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

    /// The last wait ends at `giveUp` after the first attempt; an event still not delivered
    /// then is undeliverable: logged and committed (skipped), and the next one goes on.
    @Test func anEventStillUndeliveredAtGiveUpIsLoggedAndSkipped() {
        var m = RetryMachine(giveUp: .seconds(10))
        #expect(m.handle(.event, now: .seconds(100)) == [.deliver])
        var now = Duration.seconds(100)
        var waits: [Duration] = []
        while true {
            let actions = m.handle(.outcome(.retry("cannot start /x: No such file or directory")), now: now)
            guard case .wait(let until) = actions.last else {
                #expect(actions == [.logUndeliverable("cannot start /x: No such file or directory"), .commit])
                break
            }
            waits.append(until - now)
            now = until
            #expect(m.handle(.timer, now: now) == [.deliver])
        }
        // 1 + 2 + 4 = 7 s, then the 8 s wait is cut to the 3 s left.
        #expect(waits == [1, 2, 4, 3].map { Duration.seconds($0) })
        #expect(now == .seconds(110))
        #expect(m.state == .idle)
        #expect(m.handle(.event, now: now) == [.deliver])
    }

    /// An attempt that ends past the deadline (a slow timeout) is the last one.
    @Test func aRetryPastGiveUpIsNotWaitedFor() {
        var m = RetryMachine(giveUp: .seconds(30))
        _ = m.handle(.event, now: .zero)
        #expect(
            m.handle(.outcome(.retry("killed after the timeout of 30s")), now: .seconds(30))
                == [.logUndeliverable("killed after the timeout of 30s"), .commit])
    }

    @Test func theDefaultGiveUpIsADay() {
        #expect(RetryMachine().giveUp == .seconds(86_400))
        #expect(NotifyTarget(kind: .exec(["/bin/true"])).giveUp == .seconds(86_400))
    }
}
