import Dispatch
import Synchronization

/// Runs the nonisolated steps of a task on the main queue, as the main actor, and lets a
/// poll thread run the work its poll made ready itself.
///
/// A continuation resumed from another thread (a poll thread's `AsyncStream` yield,
/// Observation's `onChange`) sends its task to the global executor first, and the task then
/// hops to the main actor: two thread wake-ups per poll cycle. Given as the task executor
/// preference of the daemon's main-actor tasks, this executor queues such a resume as a job
/// that runs as the main actor, so the hop costs nothing.
///
/// A thread that resumes tasks through ``donate(_:)`` then runs the queued jobs itself,
/// inside `DispatchQueue.main.sync` (which runs the block on the calling thread and keeps
/// every other main-queue block out meanwhile). A poll thread hands its cycle over that way,
/// and the commit and the rule loop run on it before it goes back to sleep: on a virtual
/// machine each thread that sleeps and wakes per cycle costs tens of microseconds, about a
/// tenth of reading a thousand sensors. Jobs queued by anyone else are run from the main
/// queue as usual.
final class MainQueueTaskExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        /// Next job to run (`jobs` is emptied when it has run them all).
        var next = 0
        /// A drain is running; it takes every job queued before it ends.
        var draining = false
        /// A drain is queued on the main queue.
        var scheduled = false
        /// Threads inside ``donate(_:)``; each drains when its body returns.
        var donors = 0
    }

    private let state = Mutex(State())

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let schedule = state.withLock { s -> Bool in
            s.jobs.append(job)
            guard !s.draining, !s.scheduled, s.donors == 0 else { return false }
            s.scheduled = true
            return true
        }
        if schedule { DispatchQueue.main.async { self.drain() } }
    }

    /// Runs `body`, which resumes tasks that prefer this executor, then runs the jobs that
    /// made ready on the calling thread, as the main actor. Must not be called from the main
    /// queue or while holding a lock that main-actor code takes.
    func donate(_ body: () -> Void) {
        state.withLock { $0.donors += 1 }
        body()
        let mustDrain = state.withLock { s -> Bool in
            s.donors -= 1
            // A drain already running takes these jobs too.
            return s.next < s.jobs.count && !s.draining
        }
        if mustDrain { DispatchQueue.main.sync { drain() } }
    }

    /// Whether no job is queued or running (tests wait for this before they resume a task).
    var isIdle: Bool { state.withLock { !$0.draining && !$0.scheduled && $0.next >= $0.jobs.count } }

    /// Runs every queued job, including those queued meanwhile. Only on the main queue.
    private func drain() {
        let owns = state.withLock { s -> Bool in
            s.scheduled = false
            guard !s.draining else { return false }
            s.draining = true
            return true
        }
        guard owns else { return }
        while let job = state.withLock({ s -> UnownedJob? in
            guard s.next < s.jobs.count else {
                s.jobs.removeAll(keepingCapacity: true)
                s.next = 0
                s.draining = false
                return nil
            }
            s.next += 1
            return s.jobs[s.next - 1]
        }) {
            job.runSynchronously(isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: asUnownedTaskExecutor())
        }
    }
}
