import CLinux
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Lets a poll thread run, as the main actor, the work its own poll made ready — so a poll
/// cycle wakes one thread, not two.
///
/// A poll thread hands its cycle over with ``donate(_:)``: the body (the commit to
/// `SensorData`) runs inside `DispatchQueue.main.sync`, which runs it on the calling thread
/// while it keeps every other main-queue block out, so it is the main actor. The commit's
/// observation `onChange` resumes the rule loop's task; that task prefers this executor,
/// so its job is queued here, and the donor runs it before it returns — instead of the
/// main thread waking up for it. Jobs queued by any other thread (a timer, a signal) run
/// from the main queue as usual. A benchmark decided it stays (README, Figures): without
/// it, 12 zones polled once a second cost two wake-ups a second instead of one.
///
/// Precondition: the main queue is serviced (`dispatch_main`, which Swift's async `main`
/// runs), or `main.sync` never returns; and ``donate(_:)`` is never called on the main
/// thread (it would wait for itself). The latter is checked.
final class MainQueueTaskExecutor: TaskExecutor {
    /// The thread inside ``donate(_:)`` right now, and the jobs it made ready.
    private let donor = Mutex<(thread: pthread_t?, jobs: [UnownedJob])>((nil, []))

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let self_ = pthread_self()
        let donated = donor.withLock { d -> Bool in
            guard let thread = d.thread, pthread_equal(thread, self_) != 0 else { return false }
            d.jobs.append(job)
            return true
        }
        guard !donated else { return }
        DispatchQueue.main.async { self.run(job) }
    }

    /// Runs `body` as the main actor on the calling thread, then every job that it (or a job
    /// run here) made ready for this executor. Not on the main thread, and not while
    /// holding a lock that main-actor code takes.
    func donate(_ body: @MainActor () -> Void) {
        precondition(sw_is_main_thread() == 0, "donate(_:) on the main thread would wait for itself")
        DispatchQueue.main.sync {
            let me = pthread_self()
            donor.withLock { $0.thread = me }
            MainActor.assumeIsolated { body() }
            while let job = donor.withLock({ d -> UnownedJob? in d.jobs.isEmpty ? nil : d.jobs.removeFirst() }) {
                run(job)
            }
            donor.withLock { $0.thread = nil }
        }
    }

    private func run(_ job: UnownedJob) {
        job.runSynchronously(isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: asUnownedTaskExecutor())
    }
}
