@testable import SensorConfig
@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The notifier's own work around its lanes: READY after the starting points are kept, and
/// a reload that changes only a target's timeout keeps its delivery and gives it the new one.
@DaemonActor
struct NotifierTests {
    /// A journal with nothing to come: `next()` waits until its task is cancelled.
    final class QuietSource: NotifyEventSource {
        // Kept, so the stream stays open: it ends only when the waiting task is cancelled.
        private let entries = AsyncStream<Int>.makeStream()
        var position: String? { "c0" }
        func next() async throws -> NotifyEntry {
            for await _ in entries.stream {}
            throw CancellationError()
        }
    }

    @Test func aReloadThatChangesOnlyTheTimeoutKeepsTheDeliveryAndSetsIt() async throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-notifier")
        let target = NotifyTarget(kind: .exec(["/bin/true"]), timeout: .seconds(30))
        var slower = target
        slower.timeout = .seconds(5)
        let targets = Mutex([target])
        var made: [NotifyLaneTests.ScriptedDelivery] = []
        let service = RecordingNotifier()
        let store = NotifyStateStore(path: directory.path("notify.json"))
        let environment = Notifier<VirtualClock>.Environment(
            journals: ["local"], makeSource: { _, _ in QuietSource() },
            makeDelivery: { target, _ in
                let d = NotifyLaneTests.ScriptedDelivery([])
                d.timeout = target.timeout
                made.append(d)
                return d
            },
            store: store, notifier: service, log: MemoryLog(),
            reload: { () throws(ConfigErrors) -> [NotifyTarget] in targets.withLock { $0 } })
        let notifier = Notifier(targets: [target], environment: environment, clock: VirtualClock())
        let (signals, send) = AsyncStream<DaemonSignal>.makeStream()
        let running = Task { await notifier.run(signals: signals) }
        #expect(await service.readies.until(1))
        // READY comes after the new target's starting point is on disk.
        #expect(store.load().state.cursor(target: target.key, journal: "local") == "c0")
        targets.withLock { $0 = [slower] }
        send.yield(.reload)
        #expect(await service.readies.until(2))
        #expect(made.count == 1)
        #expect(made.first?.timeout == .seconds(5))
        send.yield(.stop)
        #expect(await running.value(within: .seconds(10)) != nil)
        // The lifecycle as `run` tells it (ServiceLifecycle): RELOADING with the monotonic time.
        let states = service.states
        #expect(states.count == 4)
        #expect(states.first == .ready(status: "1 target, 1 journal"))
        if states.count == 4, case .reloading(let usec) = states[1] {
            #expect(usec > 0)
        } else {
            Issue.record("no RELOADING after the first READY: \(states)")
        }
        #expect(Array(states.suffix(2)) == [.ready(status: "1 target, 1 journal"), .stopping])
    }
    /// notify.json written before URLs were masked keys an alertmanager target by its URL
    /// with the password: the target keeps that cursor, and the file loses the password at
    /// the start, before READY.
    @Test func stateKeptUnderAKeyWithThePasswordIsTakenOverAndThePasswordLeavesTheFile() async throws {
        let directory = TemporaryDirectory(prefix: "sensorwatch-notifier")
        let target = NotifyTarget(kind: .alertmanager("http://am:s3cret@127.0.0.1:9093"))
        let store = NotifyStateStore(path: directory.path("notify.json"))
        var old = NotifyStateFile()
        old.setCursor("c-kept", target: try #require(target.keyWithPassword), journal: "local")
        try store.save(old)
        #expect(TemporaryDirectory.readFile(directory.path("notify.json"))?.contains("s3cret") == true)
        let service = RecordingNotifier()
        let environment = Notifier<VirtualClock>.Environment(
            journals: ["local"], makeSource: { _, _ in QuietSource() },
            makeDelivery: { _, _ in NotifyLaneTests.ScriptedDelivery([]) },
            store: store, notifier: service, log: MemoryLog(),
            reload: { () throws(ConfigErrors) -> [NotifyTarget] in [target] })
        let notifier = Notifier(targets: [target], environment: environment, clock: VirtualClock())
        let (signals, send) = AsyncStream<DaemonSignal>.makeStream()
        let running = Task { await notifier.run(signals: signals) }
        #expect(await service.readies.until(1))
        #expect(store.load().state.cursor(target: target.key, journal: "local") == "c-kept")
        #expect(TemporaryDirectory.readFile(directory.path("notify.json"))?.contains("s3cret") == false)
        send.yield(.stop)
        #expect(await running.value(within: .seconds(10)) != nil)
    }
    /// Under a watchdog (`WATCHDOG_USEC`) the notifier pings every quarter of its timeout,
    /// on the injected clock, from READY until the stop; without one it starts no timer.
    @Test func pingsTheWatchdogEveryQuarterOfItsTimeoutWhileItRuns() async throws {
        for watchdog in [Duration.seconds(20), nil] {
            let directory = TemporaryDirectory(prefix: "sensorwatch-notifier")
            let service = RecordingNotifier(watchdog: watchdog)
            let clock = VirtualClock()
            let environment = Notifier<VirtualClock>.Environment(
                journals: ["local"], makeSource: { _, _ in QuietSource() },
                makeDelivery: { _, _ in NotifyLaneTests.ScriptedDelivery([]) },
                store: NotifyStateStore(path: directory.path("notify.json")), notifier: service, log: MemoryLog(),
                reload: { () throws(ConfigErrors) -> [NotifyTarget] in [] })
            let notifier = Notifier(targets: [], environment: environment, clock: clock)
            let (signals, send) = AsyncStream<DaemonSignal>.makeStream()
            let running = Task { await notifier.run(signals: signals) }
            #expect(await service.readies.until(1))
            if watchdog != nil {
                for ping in 1...3 {
                    #expect(await clock.untilSleepers(1))
                    clock.advance(by: .seconds(5))
                    #expect(await service.pings.until(ping))
                }
            } else {
                await daemonActorBarrier()
                #expect(clock.sleeperCount == 0)
            }
            send.yield(.stop)
            #expect(await running.value(within: .seconds(10)) != nil)
            #expect(await clock.untilSleepers(0))
        }
    }
}
