import Dispatch
@testable import SensorRuntime
import SensorTestKit
import Testing

/// The one-shot wake-up of the rule loop: no fire is lost, whenever it comes. Each wait is
/// bounded, so a lost wake-up fails the test instead of hanging the run.
@Suite(.timeLimit(.minutes(1)))
struct ChangeSignalTests {
    @Test func aFireBeforeTheWaitMakesItReturnAtOnce() async {
        let signal = ChangeSignal()
        signal.fire()
        #expect(await Task { await signal.wait() }.value(within: .seconds(10)) != nil)
    }

    @Test func aFireFromAnotherThreadWakesAWaiter() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait() }
        DispatchQueue.global().async { signal.fire() }
        #expect(await waiter.value(within: .seconds(10)) != nil, "the wake-up was lost")
    }

    @Test func firingTwiceResumesTheWaiterOnce() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait() }
        signal.fire()
        signal.fire()
        #expect(await waiter.value(within: .seconds(10)) != nil)
    }

    @Test func aWaitWithoutAFireDoesNotReturn() async {
        let signal = ChangeSignal()
        let waiter = Task { await signal.wait() }
        #expect(await waiter.value(within: .milliseconds(50)) == nil)
        signal.fire()
        #expect(await waiter.value(within: .seconds(10)) != nil)
    }
}
