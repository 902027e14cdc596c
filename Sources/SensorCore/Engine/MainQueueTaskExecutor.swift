import Dispatch

/// Runs the nonisolated steps of a task on the main queue, as the main actor.
///
/// A continuation resumed from another thread (a poll thread's `AsyncStream` yield,
/// Observation's `onChange`) sends its task to the global executor first, and the task then
/// hops to the main actor: two thread wake-ups per poll cycle, each a few microseconds on a
/// virtual machine. Given as the task executor preference of the daemon's main-actor tasks,
/// this executor makes such a resume one main-queue job that already runs as the main
/// actor, so the hop costs nothing.
final class MainQueueTaskExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: self.asUnownedTaskExecutor())
        }
    }
}
