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
        let race = Task { await withTimer({ (try? await clock.sleep(for: .seconds(5))) != nil }) { await untilCancelled(signal); return 1 } }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(5))
        #expect(await race.value == nil)
    }

    @Test func aTimerCutShortDecidesNothingTheWorkIsAwaited() async {
        let result = await withTimer({ false }) { 7 }
        #expect(result == 7)
    }
}
