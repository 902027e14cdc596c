#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SensorCore
import SensorTestKit

/// The executor behind ``DaemonActor``: a task it resumes runs as the actor, on the thread
/// that donated itself, or on the executor's own thread otherwise.
@Suite(.timeLimit(.minutes(1)))
struct DaemonExecutorTests {
    /// A task that waits once and notes where it went on.
    final class Waiter: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let resumedOn = Mutex<pthread_t?>(nil)

        var isWaiting: Bool { waiting.withLock { $0 != nil } }

        @DaemonActor func wait() async {
            await withCheckedContinuation { c in waiting.withLock { $0 = c } }
            DaemonActor.shared.assertIsolated()
            resumedOn.withLock { $0 = pthread_self() }
        }

        func resume() { waiting.withLock { $0.take() }?.resume() }
    }

    /// Runs `body` on a new thread and waits for it; returns that thread's id.
    func onThread(_ body: @escaping @Sendable () -> Void) async -> pthread_t {
        let id = Mutex<pthread_t?>(nil)
        PollThread.start {
            body()
            id.withLock { $0 = pthread_self() }
        }
        #expect(await eventually { id.withLock { $0 != nil } }, "the thread did not run")
        return id.withLock { $0! }
    }

    @Test func aDonorThreadRunsTheWorkItsResumeMadeReady() async {
        let waiter = Waiter()
        let task = Task(executorPreference: DaemonActor.taskExecutor) { await waiter.wait() }
        await eventually { waiter.isWaiting }
        let donor = await onThread { DaemonActor.donate { waiter.resume() } }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        #expect(waiter.resumedOn.withLock { $0 } == donor)
    }

    @Test func aResumeFromAnyOtherThreadRunsElsewhere() async {
        let waiter = Waiter()
        let task = Task(executorPreference: DaemonActor.taskExecutor) { await waiter.wait() }
        await eventually { waiter.isWaiting }
        let other = await onThread { waiter.resume() }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        let resumedOn = waiter.resumedOn.withLock { $0 }
        #expect(resumedOn != nil)
        #expect(resumedOn != other)
    }
}
