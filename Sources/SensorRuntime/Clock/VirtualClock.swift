import Dispatch
import Synchronization

/// A clock whose time moves only when a test calls `advance(by:)`: the daemon's
/// ``RunClock`` in virtual time. Tasks sleep on it, and threads (poll threads, stall
/// watches) block on its alarms, so a test runs the pacing and stall timing that ships.
public final class VirtualClock: RunClock {
    /// A point in the clock's time: the offset from its start.
    public struct Instant: InstantProtocol {
        /// Time since the clock's start.
        public var offset: Duration
        /// The instant `d` later.
        public func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier instants order first.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    /// One alarm's state; its thread blocks on `wake` while `waiting`.
    fileprivate struct AlarmState {
        var deadline: Instant?
        var rung = false
        var waiting = false
        /// Waiting in `sleep(for:)` (a poll thread between polls), counted as a sleeper.
        var sleeping = false
        let wake = DispatchSemaphore(value: 0)
    }

    private struct State {
        var now = Instant(offset: .zero)
        /// Tasks sleeping until a deadline.
        var sleepers = ParkingLot<Instant>()
        var nextID = 0
        var alarms: [Int: AlarmState] = [:]
        /// Tests waiting for the clock to be in a state (``until(_:within:)``).
        var stateWaits = ParkingLot<@Sendable (Waited) -> Bool>()

        var sleeperCount: Int { sleepers.parked.count + alarms.values.count { $0.waiting && $0.sleeping } }
        var waited: Waited {
            Waited(
                sleeperCount: sleeperCount, sleepDeadlines: sleepers.parked.map(\.payload).sorted(),
                alarmDeadlines: alarms.values.compactMap { $0.rung ? nil : $0.deadline }.sorted())
        }
    }

    private let state = Mutex(State())

    /// Changes the state, then resumes the tests waiting for the state it is in now.
    private func mutate<T>(_ change: (inout State) -> T) -> T {
        let (result, reached) = state.withLock { s -> (T, [CheckedContinuation<Void, any Error>]) in
            let result = change(&s)
            guard !s.stateWaits.parked.isEmpty else { return (result, []) }
            let waited = s.waited
            let reached = s.stateWaits.take { $0(waited) }.map(\.continuation)
            return (result, reached)
        }
        for c in reached { c.resume() }
        return result
    }

    /// Makes a clock at offset zero.
    public init() {}

    /// The clock's time now: moved only by ``advance(by:)``.
    public var now: Instant { state.withLock { $0.now } }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are sleeping on this clock now, and threads sleeping on its alarms
    /// between polls (not stall watches, which wait whether armed or not).
    public var sleeperCount: Int { state.withLock { $0.sleeperCount } }

    /// What a test waits for the clock to show (``until(_:within:)``).
    public struct Waited: Sendable {
        /// ``VirtualClock/sleeperCount``.
        public var sleeperCount: Int
        /// ``VirtualClock/sleepDeadlines``.
        public var sleepDeadlines: [Instant]
        /// ``VirtualClock/alarmDeadlines``.
        public var alarmDeadlines: [Instant]
    }

    /// Returns true once ``sleeperCount`` is `count` — the event a test waits for before it
    /// moves the clock (every task and poll thread it expects asleep is asleep); false after
    /// `limit` of real time, so a test that would hang fails instead.
    public func untilSleepers(_ count: Int, within limit: Duration = .seconds(10)) async -> Bool {
        await until({ $0.sleeperCount == count }, within: limit)
    }

    /// Returns true once the clock's sleepers and alarms are as `condition` wants them
    /// (checked now and at each change of them); false after `limit` of real time.
    public func until(
        _ condition: @escaping @Sendable (Waited) -> Bool, within limit: Duration = .seconds(10)
    ) async -> Bool {
        await withinRealTime(limit) { await self.reach(condition) }
    }

    private func reach(_ condition: @escaping @Sendable (Waited) -> Bool) async {
        let id = mutate { $0.stateWaits.ticket() }
        try? await parkTask(
            park: { c in
                mutate { s -> Result<Void, any Error>? in
                    if condition(s.waited) { return .success(()) }
                    return s.stateWaits.park(id, condition, c) ? nil : .failure(CancellationError())
                }
            },
            cancel: { [self] in mutate { $0.stateWaits.cancel(id)?.continuation } })
    }

    /// The deadlines of the tasks sleeping on it now, earliest first.
    public var sleepDeadlines: [Instant] { state.withLock { $0.waited.sleepDeadlines } }

    /// The deadlines its alarms are armed for now, earliest first: a test waits for a
    /// thread to have armed (a stall watch re-arming) before it moves the clock on.
    public var alarmDeadlines: [Instant] { state.withLock { $0.waited.alarmDeadlines } }

    /// A new alarm that expires when the test advances the clock past its deadline.
    public func makeAlarm() -> any ClockAlarm {
        let id = mutate { s -> Int in
            s.nextID += 1
            s.alarms[s.nextID] = AlarmState()
            return s.nextID
        }
        return VirtualClockAlarm(clock: self, id: id)
    }

    /// Runs `change` on alarm `id`'s state; wakes its thread when it was waiting and is due.
    fileprivate func update(alarm id: Int, _ change: (inout AlarmState, Instant) -> Void) {
        let wake = mutate { s -> DispatchSemaphore? in
            guard var a = s.alarms[id] else { return nil }
            change(&a, s.now)
            let due = Self.release(&a, now: s.now)
            s.alarms[id] = a
            return due
        }
        wake?.signal()
    }

    /// Blocks until alarm `id` is due or rung.
    fileprivate func wait(alarm id: Int, sleeping: Bool) {
        let wake = mutate { s -> DispatchSemaphore? in
            guard var a = s.alarms[id] else { return nil }
            defer { s.alarms[id] = a }
            if a.rung { return nil }
            if let d = a.deadline, d <= s.now {
                a.deadline = nil
                return nil
            }
            a.waiting = true
            a.sleeping = sleeping
            return a.wake
        }
        wake?.wait()
    }

    fileprivate func remove(alarm id: Int) { _ = mutate { $0.alarms.removeValue(forKey: id) } }

    /// Ends a wait that is due: returns the semaphore to signal (once per wait).
    private static func release(_ a: inout AlarmState, now: Instant) -> DispatchSemaphore? {
        guard a.waiting else { return nil }
        if a.rung || a.deadline.map({ $0 <= now }) == true {
            a.waiting = false
            a.deadline = nil
            return a.wake
        }
        return nil
    }

    /// Suspends until the clock is advanced to `deadline` (at once if it is there already); throws `CancellationError` when the task is cancelled. `tolerance` is ignored.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = mutate { $0.sleepers.ticket() }
        try await parkTask(
            park: { c in
                mutate { s -> Result<Void, any Error>? in
                    if deadline <= s.now { return .success(()) }
                    return s.sleepers.park(id, deadline, c) ? nil : .failure(CancellationError())
                }
            },
            cancel: { [self] in mutate { $0.sleepers.cancel(id)?.continuation } })
    }

    /// Moves time forward and wakes every sleeper and alarm whose deadline has come.
    public func advance(by d: Duration) {
        let (due, alarms) = mutate { s -> ([ParkingLot<Instant>.Parked], [DispatchSemaphore]) in
            s.now = s.now.advanced(by: d)
            let now = s.now
            let due = s.sleepers.take { $0 <= now }
            var alarms: [DispatchSemaphore] = []
            // By index, in place: a loop over `keys` holds the dictionary, so writing back
            // each alarm copied all of them at every advance (`simulate` advances per poll).
            var i = s.alarms.values.startIndex
            while i != s.alarms.values.endIndex {
                if let wake = Self.release(&s.alarms.values[i], now: now) { alarms.append(wake) }
                s.alarms.values.formIndex(after: &i)
            }
            return (due, alarms)
        }
        guard !due.isEmpty || !alarms.isEmpty else { return }
        for sleeper in due.sorted(by: { $0.payload < $1.payload }) { sleeper.continuation.resume() }
        for wake in alarms { wake.signal() }
    }
}

/// An alarm of a ``VirtualClock``: it expires when the test advances the clock past it.
private final class VirtualClockAlarm: ClockAlarm {
    private let clock: VirtualClock
    private let id: Int

    init(clock: VirtualClock, id: Int) {
        self.clock = clock
        self.id = id
    }

    deinit { clock.remove(alarm: id) }

    func arm(after: Duration) { clock.update(alarm: id) { a, now in a.deadline = now.advanced(by: after) } }
    func disarm() { clock.update(alarm: id) { a, _ in a.deadline = nil } }
    func ring() { clock.update(alarm: id) { a, _ in a.rung = true } }
    func wait() { clock.wait(alarm: id, sleeping: false) }

    func sleep(for duration: Duration) {
        arm(after: duration)
        clock.wait(alarm: id, sleeping: true)
    }
}
