#if canImport(Glibc)
import Glibc
#endif

/// The serial executor of ``DaemonActor``: whoever owns it runs its jobs, one at a time.
///
/// A poll thread hands its cycles over with ``donate(_:)``: it takes ownership (waiting if
/// a job runs elsewhere), runs the commit as the actor, then runs every job queued
/// meanwhile — the rule loop that the commit's observation `onChange` resumed — and lets
/// go; it runs only jobs made ready on its own thread (others wait for the executor's own
/// thread). So a poll cycle wakes exactly one thread, the poll thread, which a benchmark showed
/// is what keeps the daemon at about one wake-up per poll (README, Figures). Jobs queued
/// from other threads (a signal, a reload, a test) are run by a thread of the executor's
/// own, which takes ownership the same way. Not a dispatch queue: the first libdispatch
/// worker thread starts libdispatch's pool monitor, a timer that wakes the process every
/// second for as long as it runs.
///
/// It is also the task executor the daemon's tasks prefer: a continuation resumed from
/// another thread first goes to its task's executor (the global pool, without a
/// preference) before it hops to the actor — a thread woken for nothing, and too late for
/// the donor to run it. With the preference it comes here directly, and the donor runs it.
///
/// Mutual exclusion is the owner field under one pthread mutex; `checkIsolated` lets
/// `assumeIsolated` and isolation assertions pass on the owning thread only.
final class DaemonExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // Guarded by `mutex`.
    private var owner: pthread_t?
    /// Jobs the owner made ready on its own thread: it runs them before it lets go.
    private var jobs: [UnownedJob] = []
    /// Jobs queued from any other thread: the executor's own thread runs them, never a
    /// donor (a poll thread runs only the work its own cycle made ready).
    private var others: [UnownedJob] = []
    private var next = 0
    private var scheduled = false
    private var drainerStarted = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let wanted = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(released, nil)
        pthread_cond_init(wanted, nil)
    }

    deinit {
        pthread_cond_destroy(wanted)
        pthread_cond_destroy(released)
        pthread_mutex_destroy(mutex)
        wanted.deallocate()
        released.deallocate()
        mutex.deallocate()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let me = pthread_self()
        pthread_mutex_lock(mutex)
        if let owner, pthread_equal(owner, me) != 0 {
            jobs.append(job)
        } else {
            others.append(job)
            // Taken by the executor's thread, now or once the owner lets go.
            if owner == nil && !scheduled {
                scheduled = true
                pthread_cond_signal(wanted)
            }
        }
        let start = !drainerStarted
        drainerStarted = true
        pthread_mutex_unlock(mutex)
        if start { PollThread.start { [self] in drainer() } }
    }

    /// Runs `body` as the actor on the calling thread, then the jobs queued until none is
    /// left. Must not be called by the owner itself (a job of this actor), which would
    /// wait for itself; that is checked.
    func donate(_ body: @DaemonActor () -> Void) {
        let me = pthread_self()
        pthread_mutex_lock(mutex)
        precondition(owner.map { pthread_equal($0, me) == 0 } ?? true, "donate(_:) from a job of the DaemonActor")
        while owner != nil { pthread_cond_wait(released, mutex) }
        owner = me
        pthread_mutex_unlock(mutex)
        // Safe: this thread owns the executor, so it is the actor now.
        withoutActuallyEscaping(body) { body in
            unsafeBitCast(body, to: (() -> Void).self)()
        }
        runQueuedThenRelease()
    }

    func checkIsolated() {
        let me = pthread_self()
        pthread_mutex_lock(mutex)
        let owns = owner.map { pthread_equal($0, me) != 0 } ?? false
        pthread_mutex_unlock(mutex)
        precondition(owns, "not on the DaemonActor")
    }

    /// Runs jobs queued while nobody owned the executor; sleeps otherwise.
    private func drainer() {
        let me = pthread_self()
        while true {
            pthread_mutex_lock(mutex)
            while !scheduled { pthread_cond_wait(wanted, mutex) }
            scheduled = false
            // Someone owns it: its release schedules this thread again.
            guard owner == nil else {
                pthread_mutex_unlock(mutex)
                continue
            }
            owner = me
            pthread_mutex_unlock(mutex)
            runQueuedThenRelease(takingOthers: true)
        }
    }

    /// Runs the owner's jobs (and, for the executor's own thread, everyone else's) until none
    /// is left, then lets go; jobs of others still waiting go to the executor's thread.
    private func runQueuedThenRelease(takingOthers: Bool = false) {
        while true {
            pthread_mutex_lock(mutex)
            if takingOthers, !others.isEmpty {
                jobs.append(contentsOf: others)
                others.removeAll(keepingCapacity: true)
            }
            guard next < jobs.count else {
                jobs.removeAll(keepingCapacity: true)
                next = 0
                owner = nil
                if !others.isEmpty, !scheduled {
                    scheduled = true
                    pthread_cond_signal(wanted)
                }
                pthread_cond_broadcast(released)
                pthread_mutex_unlock(mutex)
                return
            }
            let job = jobs[next]
            next += 1
            pthread_mutex_unlock(mutex)
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }
}
