import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The serial executor of ``DaemonActor``: whoever owns it runs its jobs, one at a time.
///
/// A poll thread hands its cycles over with ``donate(_:)``: it takes ownership (waiting if
/// a job runs elsewhere), runs the commit as the actor, then runs every job queued
/// meanwhile — the rule loop that the commit's observation `onChange` resumed — and lets
/// go; it runs only jobs made ready on its own thread (others wait for the executor's own
/// thread). So a poll cycle wakes exactly one thread, the poll thread: 12 zones polled
/// once a second cost 1.0 wake-ups a second, where a dispatch queue or the main actor cost
/// about 3 (`bench/wakeups.sh`, figures in bench/README.md). Jobs queued from other threads (a signal,
/// a reload, a timer, a test) are run by a thread of the executor's own, which takes
/// ownership the same way. Not a dispatch queue: the first libdispatch worker thread
/// starts libdispatch's pool monitor, a timer that wakes the process every second for as
/// long as it runs.
///
/// It is also the task executor the daemon's tasks prefer: a continuation resumed from
/// another thread first goes to its task's executor (the global pool, without a
/// preference) before it hops to the actor — a thread woken for nothing, and too late for
/// the donor to run it. With the preference it comes here directly, and the donor runs it.
///
/// All state is under one `Mutex`; a thread blocks only where it must — a donor while
/// another thread owns the executor (ownership is handed to it directly), and the
/// executor's own thread while there is nothing for it — each on a semaphore of its own.
final class DaemonExecutor: SerialExecutor, TaskExecutor, Sendable {
    private struct State {
        var owner: pthread_t?
        /// Jobs the owner made ready on its own thread: it runs them before it lets go.
        var jobs: [UnownedJob] = []
        var next = 0
        /// Jobs queued from any other thread: the executor's own thread runs them, never a
        /// donor (a poll thread runs only the work its own cycle made ready).
        var others: [UnownedJob] = []
        /// Donors waiting for ownership, first come first served.
        var donors: [(thread: pthread_t, handedOver: DispatchSemaphore)] = []
        /// The executor's own thread has been told to take the others' jobs.
        var scheduled = false
        var drainerStarted = false
    }

    private let state = Mutex(State())
    /// Wakes the executor's own thread (signalled once per `scheduled`).
    private let wanted = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let me = pthread_self()
        let (wake, start) = state.withLock { s -> (Bool, Bool) in
            if let owner = s.owner, pthread_equal(owner, me) != 0 {
                s.jobs.append(job)
                return (false, false)
            }
            s.others.append(job)
            // Taken by the executor's thread, now or once the owner lets go.
            let wake = s.owner == nil && !s.scheduled
            if wake { s.scheduled = true }
            return (wake, !s.drainerStarted)
        }
        // Started by the executable before anything runs (``startThread()``); here for a
        // process that did not (tests), and tried again at the next job if it fails.
        if start { try? startThread() }
        if wake { wanted.signal() }
    }

    /// Starts the executor's own thread, unless it runs already.
    ///
    /// - Throws: ``SystemError``: jobs queued from other threads (a signal,
    ///   a timer) would then wait for a thread that does not come.
    func startThread() throws(SystemError) {
        let start = state.withLock { s -> Bool in
            defer { s.drainerStarted = true }
            return !s.drainerStarted
        }
        guard start else { return }
        do {
            try DetachedThread.start("the DaemonActor") { [self] in drainer() }
        } catch {
            state.withLock { $0.drainerStarted = false }
            throw error
        }
    }

    /// Runs `body` as the actor on the calling thread, then the jobs queued until none is
    /// left. Must not be called by the owner itself (a job of this actor), which would
    /// wait for itself; that is checked.
    func donate(_ body: @DaemonActor () -> Void) {
        #if SENSORWATCH_NO_DONATION
        // The bench's build without donation (bench/donation.sh): the poll thread hands its
        // commit to the executor's own thread and waits for it, as a queue's `sync` would.
        let done = DispatchSemaphore(value: 0)
        withoutActuallyEscaping(body) { body in
            // The task keeps the box, not the closure, which must not outlive this call.
            let box = NoDonationBox(body)
            Task(executorPreference: self) { @DaemonActor in
                box.body?()
                box.body = nil
                done.signal()
            }
            done.wait()
        }
        #else
        let me = pthread_self()
        let handedOver = state.withLock { s -> DispatchSemaphore? in
            guard let owner = s.owner else {
                s.owner = me
                return nil
            }
            precondition(pthread_equal(owner, me) == 0, "donate(_:) from a job of the DaemonActor")
            let semaphore = DispatchSemaphore(value: 0)
            s.donors.append((me, semaphore))
            return semaphore
        }
        // The releasing owner makes this thread the owner before it signals.
        handedOver?.wait()
        DaemonActor.assumeIsolated(body)
        runQueuedThenRelease()
        #endif
    }

    /// Lets `assumeIsolated` and isolation assertions pass on the owning thread only.
    /// (`isIsolatingCurrentContext`, the newer form, is left out on purpose: implemented,
    /// it made the donation tests of DaemonExecutorTests fail whenever the whole suite ran
    /// beside them — a resumed turn then ran on another thread than its donor.)
    func checkIsolated() {
        let me = pthread_self()
        let owns = state.withLock { s in s.owner.map { pthread_equal($0, me) != 0 } ?? false }
        precondition(owns, "not on the DaemonActor")
    }

    /// The executor's own thread: runs jobs queued while nobody owned the executor.
    private func drainer() {
        let me = pthread_self()
        while true {
            wanted.wait()
            let owns = state.withLock { s -> Bool in
                s.scheduled = false
                // Someone owns it: its release schedules this thread again.
                guard s.owner == nil else { return false }
                s.owner = me
                return true
            }
            if owns { runQueuedThenRelease(takingOthers: true) }
        }
    }

    /// Runs the owner's jobs (and, for the executor's own thread, everyone else's) until none
    /// is left, then lets go: to a waiting donor, else to the executor's thread when others'
    /// jobs wait.
    private func runQueuedThenRelease(takingOthers: Bool = false) {
        while true {
            let job = state.withLock { s -> UnownedJob? in
                if takingOthers, !s.others.isEmpty {
                    s.jobs.append(contentsOf: s.others)
                    s.others.removeAll(keepingCapacity: true)
                }
                if s.next < s.jobs.count {
                    defer { s.next += 1 }
                    return s.jobs[s.next]
                }
                s.jobs.removeAll(keepingCapacity: true)
                s.next = 0
                return nil
            }
            guard let job else { break }
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        let (donor, wake) = state.withLock { s -> (DispatchSemaphore?, Bool) in
            if !s.donors.isEmpty {
                let next = s.donors.removeFirst()
                s.owner = next.thread
                return (next.handedOver, false)
            }
            s.owner = nil
            let wake = !s.others.isEmpty && !s.scheduled
            if wake { s.scheduled = true }
            return (nil, wake)
        }
        donor?.signal()
        if wake { wanted.signal() }
    }
}

#if SENSORWATCH_NO_DONATION
/// The commit handed to the executor's thread in the bench's build without donation.
private final class NoDonationBox: @unchecked Sendable {
    var body: (@DaemonActor () -> Void)?
    init(_ body: @escaping @DaemonActor () -> Void) { self.body = body }
}
#endif
