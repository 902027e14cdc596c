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
final class AlarmSleepers<C: RunClock>: Sendable {
    private struct State {
        var sleepers = ParkingLot<C.Instant>()
    }

    private let now: @Sendable () -> C.Instant
    private let alarm: any ClockAlarm
    private let state = Mutex(State())

    /// Starts the thread that waits on `alarm` (it sleeps until a deadline is armed).
    ///
    /// - Throws: ``SystemError`` when the thread could not be made: no
    ///   task could ever wake from a sleep, so the clock is not made.
    init(now: @escaping @Sendable () -> C.Instant, alarm: any ClockAlarm) throws(SystemError) {
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
    var count: Int { state.withLock { $0.sleepers.parked.count } }
    /// Sleeps begun and ended (by their deadline or a cancellation) so far: a test waits for
    /// them as events.
    package let begun = EventCount(), ended = EventCount()

    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: C.Instant) async throws {
        let id = state.withLock { $0.sleepers.ticket() }
        try await parkTask(
            park: { c in
                let refused = state.withLock { s -> Result<Void, any Error>? in
                    let earliest = s.sleepers.parked.allSatisfy { deadline < $0.payload }
                    guard s.sleepers.park(id, deadline, c) else { return .failure(CancellationError()) }
                    if earliest { alarm.arm(after: now().duration(to: deadline)) }
                    return nil
                }
                if refused == nil { begun.increment() }
                return refused
            },
            cancel: { [self] in
                let gone = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                    guard let gone = s.sleepers.cancel(id) else { return nil }
                    // Its deadline goes with it: the alarm is re-armed for the earliest left.
                    if s.sleepers.parked.allSatisfy({ gone.payload < $0.payload }) { armForEarliest(s, now: now()) }
                    return gone.continuation
                }
                if gone != nil { ended.increment() }
                return gone
            })
    }

    /// Resumes every sleeper whose deadline has come and arms for the next.
    private func wakeDue() {
        let due = state.withLock { s -> [ParkingLot<C.Instant>.Parked] in
            let t = now()
            let due = s.sleepers.take { !(t < $0) }
            armForEarliest(s, now: t)
            return due
        }
        if !due.isEmpty { ended.increment(by: due.count) }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Arms the alarm for the earliest deadline of `s`, or disarms it when none is left.
    private func armForEarliest(_ s: State, now t: C.Instant) {
        if let next = s.sleepers.parked.map(\.payload).min() {
            alarm.arm(after: t.duration(to: next))
        } else {
            alarm.disarm()
        }
    }
}
