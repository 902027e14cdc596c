@testable import SensorCore
@testable import SensorRuntime
import SensorTestKit
import Testing

/// The one lifecycle sender: each ``ServiceState``'s datagram, golden, and the watchdog's
/// pings on the injected clock.
@Suite(.timeLimit(.minutes(1)))
struct ServiceLifecycleTests {
    @Test func eachStateIsItsDatagram() {
        #expect(
            ServiceState.ready(status: "3 sensors, 0 faulty, 1 firing").datagram
                == "READY=1\nSTATUS=3 sensors, 0 faulty, 1 firing")
        #expect(ServiceState.ready(status: nil).datagram == "READY=1")
        #expect(
            ServiceState.reloading(monotonicMicroseconds: 98_765_432_100).datagram
                == "RELOADING=1\nMONOTONIC_USEC=98765432100")
        #expect(ServiceState.stopping.datagram == "STOPPING=1")
        #expect(ServiceState.watchdog.datagram == "WATCHDOG=1")
        #expect(ServiceState.status("connected to mqtt://b:1883").datagram == "STATUS=connected to mqtt://b:1883")
    }

    @Test func eachCallSendsItsStateAndAReloadTheMonotonicTimeThen() {
        let notifier = RecordingNotifier()
        let lifecycle = ServiceLifecycle(notifier: notifier, monotonicMicroseconds: { 42_000_001 })
        lifecycle.ready(status: "2 targets, 1 journal")
        lifecycle.reloading()
        lifecycle.ready()
        lifecycle.status("1 sensor, 0 faulty, 0 firing")
        lifecycle.watchdog()
        lifecycle.stopping()
        #expect(
            notifier.sent == [
                "READY=1\nSTATUS=2 targets, 1 journal", "RELOADING=1\nMONOTONIC_USEC=42000001", "READY=1",
                "STATUS=1 sensor, 0 faulty, 0 firing", "WATCHDOG=1", "STOPPING=1",
            ])
    }

    @Test func theMonotonicTimeIsTheSystemsAndMovesForward() {
        let first = ServiceLifecycle.monotonicMicroseconds()
        #expect(first > 0)
        #expect(ServiceLifecycle.monotonicMicroseconds() >= first)
    }

    @Test func theWatchdogIsPingedEveryQuarterOfItsTimeoutOnTheClock() async {
        let notifier = RecordingNotifier(watchdog: .seconds(8))
        let clock = VirtualClock()
        guard let pings = ServiceLifecycle(notifier: notifier).watchdogPings(on: clock) else {
            Issue.record("no pings under a watchdog")
            return
        }
        let running = Task { await pings.run() }
        for ping in 1...3 {
            #expect(await clock.untilSleepers(1))
            clock.advance(by: .seconds(2))
            #expect(await notifier.pings.until(ping))
        }
        running.cancel()
        #expect(await running.value(within: .seconds(10)) != nil)
        #expect(notifier.states.allSatisfy { $0 == .watchdog })
    }

    @Test func withoutAWatchdogThereAreNoPings() {
        #expect(ServiceLifecycle(notifier: RecordingNotifier()).watchdogPings(on: VirtualClock()) == nil)
    }
}
