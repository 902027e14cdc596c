#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SensorCore
import SensorTestKit

/// The executor behind the daemon's consumer and loop tasks: a task it resumes runs as the
/// main actor, on the thread that donated itself, or from the main queue otherwise.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct MainQueueTaskExecutorTests {
    /// A task that waits once and notes where (and whether on the main actor) it went on.
    final class Waiter: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let resumedOn = Mutex<pthread_t?>(nil)

        var isWaiting: Bool { waiting.withLock { $0 != nil } }

        @MainActor func wait() async {
            await withCheckedContinuation { c in waiting.withLock { $0 = c } }
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
        let executor = MainQueueTaskExecutor()
        let waiter = Waiter()
        let task = Task(executorPreference: executor) { await waiter.wait() }
        // The drain that started the task must have ended, or it would take the resume.
        await eventually { waiter.isWaiting && executor.isIdle }
        let donor = await onThread { executor.donate { waiter.resume() } }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        #expect(waiter.resumedOn.withLock { $0 } == donor)
    }

    @Test func aResumeFromAnyOtherThreadRunsFromTheMainQueue() async {
        let executor = MainQueueTaskExecutor()
        let waiter = Waiter()
        let task = Task(executorPreference: executor) { await waiter.wait() }
        await eventually { waiter.isWaiting }
        let other = await onThread { waiter.resume() }
        #expect(await task.value(within: .seconds(10)) != nil, "the resumed task did not run")
        let resumedOn = waiter.resumedOn.withLock { $0 }
        #expect(resumedOn != nil)
        #expect(resumedOn != other)
    }
}
