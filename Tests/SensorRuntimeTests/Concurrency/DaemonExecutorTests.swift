#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The executor behind ``DaemonActor``: a task it resumes runs as the actor, on the thread
/// that donated itself, or on the executor's own thread otherwise.
@Suite(.timeLimit(.minutes(1)))
struct DaemonExecutorTests {
    /// A task that waits once and notes where it went on.
    final class Waiter: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let resumedOn = Mutex<pthread_t?>(nil)
        /// Its waits so far, for a test to wait for.
        let waits = EventCount()

        @DaemonActor func wait() async {
            await withCheckedContinuation { c in
                waiting.withLock { $0 = c }
                waits.increment()
            }
            DaemonActor.shared.assertIsolated()
            resumedOn.withLock { $0 = pthread_self() }
        }

        func resume() { waiting.withLock { $0.take() }?.resume() }
    }

    /// Runs `body` on a new thread and waits for it; returns that thread's id.
    func onThread(_ body: @escaping @Sendable () -> Void) async -> pthread_t {
        let id = Mutex<pthread_t?>(nil)
        let ran = EventCount()
        try? DetachedThread.start("a test") {
            body()
            id.withLock { $0 = pthread_self() }
            ran.increment()
        }
        #expect(await ran.until(1), "the thread did not run")
        return id.withLock { $0! }
    }

    @Test func aDonorThreadRunsTheWorkItsResumeMadeReady() async {
        let waiter = Waiter()
        let task = Task(executorPreference: DaemonActor.taskExecutor) { await waiter.wait() }
        #expect(await waiter.waits.until(1))
        let donor = await onThread { DaemonActor.donate { waiter.resume() } }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        #expect(waiter.resumedOn.withLock { $0 } == donor)
    }

    @Test func aResumeFromAnyOtherThreadRunsElsewhere() async {
        let waiter = Waiter()
        let task = Task(executorPreference: DaemonActor.taskExecutor) { await waiter.wait() }
        #expect(await waiter.waits.until(1))
        let other = await onThread { waiter.resume() }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        let resumedOn = waiter.resumedOn.withLock { $0 }
        #expect(resumedOn != nil)
        #expect(resumedOn != other)
    }

    /// A reader that notes the thread of each poll (its source's poll thread).
    final class ThreadNotingReader: SensorReader {
        let source = "sim"
        let info = SensorInfo(id: "sim:cpu", quantity: .temperature)
        private let script = Mutex<[Double]>([50, 85])
        let pollThreads = Mutex<[pthread_t]>([])
        let polls = EventCount()

        func discover() -> [SensorInfo] { [info] }

        func isolateBlockedRead(now: Timestamp) -> Bool { false }

        var leftOut: [String] { [] }

        func poll(at time: Timestamp) -> [SensorValues] {
            pollThreads.withLock { $0.append(pthread_self()) }
            polls.increment()
            guard let value = script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return [] }
            var values = SensorValues(time: time, capacity: 1)
            values.append(value)
            return [values]
        }
    }

    /// A sink that notes the thread each alert event is emitted on (the rule loop's turn).
    final class ThreadNotingSink: AlertSink {
        let eventThreads = Mutex<[pthread_t]>([])
        let events = EventCount()
        func emit(_ event: AlertEvent) {
            eventThreads.withLock { $0.append(pthread_self()) }
            events.increment()
        }
        func emit(_ fault: SensorFault) {}
        func emit(_ presence: SensorPresence) {}
    }

    /// The donation the daemon's one wake-up a poll rests on: the poll thread that committed
    /// a hot sample also runs the rule loop's turn that the commit resumed, so the event is
    /// emitted on that very thread. Handing the turn to any other thread (a queue, the
    /// executor's own thread, the pool) fails here.
    @Test func theRuleLoopEvaluatesAPollOnThePollThreadThatCommittedIt() async {
        let clock = VirtualClock()
        let reader = ThreadNotingReader()
        let sink = ThreadNotingSink()
        let rule = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0))
        let configuration = Configuration(
            path: "test.json5", sources: [SourceConfiguration(kind: .simulated, interval: .seconds(1))], rules: [rule])
        let daemon = await Daemon(
            configuration: configuration,
            environment: Daemon<VirtualClock>.Environment(
                sink: sink, reload: { configuration }, makeReader: { _ in reader }),
            clock: clock)
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await reader.polls.until(1))
        #expect(await clock.until { $0.sleeperCount >= 1 })
        clock.advance(by: .seconds(1))
        #expect(await sink.events.until(1))
        await daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        let polled = reader.pollThreads.withLock { $0 }
        let emitted = sink.eventThreads.withLock { $0 }
        #expect(polled.count >= 2 && emitted.count == 1)
        #expect(
            polled.count >= 2 && emitted.first.map { pthread_equal($0, polled[1]) != 0 } == true,
            "the firing event was not emitted on the poll thread that read the hot sample")
    }
}
