@testable import SensorRuntime
import SensorTestKit
import Testing

/// The one timeout race: the work's result when it ends first, nil when the timer runs out
/// first, and a timer cut short decides nothing.
@Suite(.timeLimit(.minutes(1)))
struct WithTimerTests {
    @Test func workThatEndsFirstGivesItsResultAndCancelsTheTimer() async {
        let clock = VirtualClock()
        let result = await withTimer({ (try? await clock.sleep(for: .seconds(5))) != nil }) { 42 }
        #expect(result == 42)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTimerThatRunsOutFirstGivesNilAndCancelsTheWork() async {
        let clock = VirtualClock()
        let signal = ChangeSignal()
        let race = Task {
            await withTimer({ (try? await clock.sleep(for: .seconds(5))) != nil }) {
                await untilSignalledOrCancelled(signal); return 1
            }
        }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(5))
        #expect(await race.value == nil)
    }

    @Test func aTimerCutShortDecidesNothingTheWorkIsAwaited() async {
        let result = await withTimer({ false }) { 7 }
        #expect(result == 7)
    }

    @Test func whatTheWorkReturnsAfterTheTimerRanOutIsKeptAsLate() async {
        let clock = VirtualClock()
        let race = Task { () -> (Int?, Int?) in
            var late: Int?
            let result = await withTimer(.seconds(5), on: clock, keepingLate: &late) {
                await untilCancelled()
                return 9
            }
            return (result, late)
        }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(5))
        let (result, late) = await race.value
        #expect(result == nil)
        #expect(late == 9)
    }

    @Test func workThatEndsFirstLeavesNothingLate() async {
        var late: Int?
        let result = await withTimer(.seconds(5), on: VirtualClock(), keepingLate: &late) { 3 }
        #expect(result == 3)
        #expect(late == nil)
    }

    @Test func theInjectedClocksSleepIsTheTimer() async {
        let clock = VirtualClock()
        let race = Task {
            await withTimer(.seconds(2), on: clock) {
                await untilCancelled(); return 1
            }
        }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(await race.value == nil)
    }
}
