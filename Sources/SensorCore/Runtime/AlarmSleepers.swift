import Synchronization

/// Tasks sleeping on a clock, woken by one thread that blocks on one ``ClockAlarm`` armed
/// for the earliest deadline.
///
/// The thread wakes only when a deadline comes (arming from a new sleep wakes nobody);
/// a cancelled sleep ends at once and takes its deadline with it: the alarm is re-armed
/// for the earliest one left (or disarmed), so a timer that is moved, cancelled and slept
/// again, wakes no thread at the deadline it gave up (the status file's, ten seconds after
/// each write: `bench/wakeups.sh`, figures in bench/README.md). The daemon's task
/// sleeps are rare (READY's wait for discoveries, the watchdog's beat, the metrics timer,
/// `record`'s end), so a plain list is enough.
final class AlarmSleepers<C: Clock>: Sendable where C.Duration == Duration {
    private struct Sleeper {
        var id: Int
        var deadline: C.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var sleepers: [Sleeper] = []
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    private let now: @Sendable () -> C.Instant
    private let alarm: any ClockAlarm
    private let state = Mutex(State())

    /// Starts the thread that waits on `alarm` (it sleeps until a deadline is armed).
    ///
    /// - Throws: ``DetachedThread/StartFailure`` when the thread could not be made: no
    ///   task could ever wake from a sleep, so the clock is not made.
    init(now: @escaping @Sendable () -> C.Instant, alarm: any ClockAlarm) throws(DetachedThread.StartFailure) {
        self.now = now
        self.alarm = alarm
        // The thread keeps only a weak way back: it ends when the clock goes.
        try DetachedThread.start("the clock") { [weak self] in
            while true {
                alarm.wait()
                guard let self else { return }
                self.wakeDue()
            }
        }
    }

    deinit { alarm.ring() }

    /// How many tasks sleep now.
    var count: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: C.Instant) async throws {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let result = state.withLock { s -> Result<Void, any Error>? in
                    if s.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    let earliest = s.sleepers.allSatisfy { deadline < $0.deadline }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: c))
                    if earliest { alarm.arm(after: now().duration(to: deadline)) }
                    return nil
                }
                if let result { c.resume(with: result) }
            }
        } onCancel: {
            let c = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else {
                    s.cancelled.insert(id)
                    return nil
                }
                let gone = s.sleepers.remove(at: i)
                if s.sleepers.allSatisfy({ gone.deadline < $0.deadline }) {
                    if let next = s.sleepers.min(by: { $0.deadline < $1.deadline }) {
                        alarm.arm(after: now().duration(to: next.deadline))
                    } else {
                        alarm.disarm()
                    }
                }
                return gone.continuation
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// Resumes every sleeper whose deadline has come and arms for the next.
    private func wakeDue() {
        let due = state.withLock { s -> [Sleeper] in
            let t = now()
            let due = s.sleepers.filter { !(t < $0.deadline) }
            s.sleepers.removeAll { !(t < $0.deadline) }
            if let next = s.sleepers.min(by: { $0.deadline < $1.deadline }) {
                alarm.arm(after: t.duration(to: next.deadline))
            }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
