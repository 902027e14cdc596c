#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SensorCore

/// The executor behind ``DaemonActor``: a task it resumes runs as the actor, on the thread
/// that donated itself, or on the executor's queue otherwise.
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

    func eventually(_ condition: () -> Bool) async {
        let start = ContinuousClock.now
        while !condition(), ContinuousClock.now - start < .seconds(10) {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Runs `body` on a new thread and waits for it; returns that thread's id.
    func onThread(_ body: @escaping @Sendable () -> Void) async -> pthread_t {
        let id = Mutex<pthread_t?>(nil)
        PollThread.start {
            body()
            id.withLock { $0 = pthread_self() }
        }
        await eventually { id.withLock { $0 != nil } }
        return id.withLock { $0! }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDonorThreadRunsTheWorkItsResumeMadeReady() async {
        let waiter = Waiter()
        let task = Task(executorPreference: DaemonActor.taskExecutor) { await waiter.wait() }
        await eventually { waiter.isWaiting }
        let donor = await onThread { DaemonActor.donate { waiter.resume() } }
        await task.value
        #expect(waiter.resumedOn.withLock { $0 } == donor)
    }

    @Test(.timeLimit(.minutes(1)))
    func aResumeFromAnyOtherThreadRunsElsewhere() async {
        let waiter = Waiter()
        let task = Task { @DaemonActor in await waiter.wait() }
        await eventually { waiter.isWaiting }
        let other = await onThread { waiter.resume() }
        await task.value
        let resumedOn = waiter.resumedOn.withLock { $0 }
        #expect(resumedOn != nil)
        #expect(resumedOn != other)
    }
}
