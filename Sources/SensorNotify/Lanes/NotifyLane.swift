public import SensorConfig
public import SensorCore
public import SensorRuntime

/// Delivers one target's events from one journal, one at a time, in journal order (SPEC
/// §17): an event that waits to be retried holds back only this lane's later events.
///
/// The lane reads from its own ``NotifyEventSource``, skips what the target's filter does
/// not take, runs each taken event through a ``RetryMachine`` and calls `commit` with the
/// entry's cursor when it is done with it (delivered, failed for good, or given up), which the
/// notifier writes to `notify.json` before the next event: a restart resumes after it.
/// Every wait is on the injected clock.
@DaemonActor
public final class NotifyLane<C: RunClock>: Service {
    private let target: NotifyTarget
    private let source: any NotifyEventSource
    private let delivery: any NotifyDelivery
    private let clock: C
    private let log: any DaemonLog
    private let commit: @DaemonActor (String) -> Void
    /// The silences every lane shares (SPEC §21).
    private let silences: SilenceBoard
    /// An exec target's silence state; nil for a target that silences do not gate
    /// (alertmanager, which silences itself).
    private var gate: SilenceGate?
    private let keepHeld: @DaemonActor ([NotifyEvent]) -> Void
    private let wallClock: any WallClock
    /// An entry read while a wait for a silence's end was being given up.
    private var pending: NotifyEntry?

    /// - Parameters:
    ///   - commit: keeps the cursor of an entry the lane is done with.
    ///   - silences: the silences known; the lane records the silence entries it reads.
    ///   - gate: the held-back alerts of an exec target (nil: silences do not hold back).
    ///   - keepHeld: keeps a changed held-back set (written with the next save).
    ///   - wallClock: microseconds since the epoch, which silence times are in.
    public init(
        target: NotifyTarget, source: any NotifyEventSource, delivery: any NotifyDelivery, clock: C,
        log: any DaemonLog, silences: SilenceBoard = SilenceBoard(), gate: SilenceGate? = nil,
        keepHeld: @escaping @DaemonActor ([NotifyEvent]) -> Void = { _ in },
        wallClock: any WallClock = SystemWallClock(),
        commit: @escaping @DaemonActor (String) -> Void
    ) {
        self.target = target
        self.source = source
        self.delivery = delivery
        self.clock = clock
        self.log = log
        self.silences = silences
        self.gate = gate
        self.keepHeld = keepHeld
        self.wallClock = wallClock
        self.commit = commit
    }

    /// Delivers events until the task is cancelled. A read error is logged and the read
    /// tried again after the back-off's first delay. Held-back alerts whose silence has ended
    /// are delivered first, and the wait for the next entry ends when the next one may be.
    public func run() async {
        let start = clock.now
        func now() -> Duration { start.duration(to: clock.now) }
        while !Task.isCancelled {
            for event in gate?.releasable(silences: silences.book, nowMicroseconds: wallClock.now.microseconds) ?? [] {
                let done: @DaemonActor () -> Void = { [weak self] in
                    guard let self, var gate = self.gate else { return }
                    gate.forget(event)
                    self.gate = gate
                    self.keepHeld(gate.held)
                }
                guard await deliver(event, now: now, start: start, done: done) else { return }
            }
            let entry: NotifyEntry
            do {
                guard
                    let next = try await next(
                        until: gate?.nextRelease(silences: silences.book, nowMicroseconds: wallClock.now.microseconds))
                else { continue }
                entry = next
            } catch is CancellationError {
                return
            } catch {
                log.log(.error, "\(target.name): cannot read the journal: \(error)")
                do { try await clock.sleep(for: RetryMachine.firstDelay) } catch { return }
                continue
            }
            if let silence = entry.silence {
                silences.record(silence)
                let describe = "silence \(silence.id)" + (silence.expired ? " (expired)" : "")
                let handOver: @DaemonActor () async -> DeliveryOutcome = { [delivery] in await delivery.silence(silence)
                }
                guard
                    await attempt(
                        describe, handOver, now: now, start: start, done: { [commit] in commit(entry.cursor) })
                else { return }
                continue
            }
            // A skipped entry's cursor is not written: reading it again after a restart
            // costs nothing, and a write per skipped entry would.
            guard let event = entry.event, target.filter.matches(event) else { continue }
            if var gate {
                let before = gate.held
                let admitted = gate.admit(event, silences: silences.book, nowMicroseconds: wallClock.now.microseconds)
                self.gate = gate
                if gate.held != before { keepHeld(gate.held) }
                guard admitted else {
                    commit(entry.cursor)
                    continue
                }
            }
            guard await deliver(event, now: now, start: start, done: { [commit] in commit(entry.cursor) }) else {
                return
            }
        }
    }

    /// The next entry, or nil once the wall clock reaches `deadline` first. An entry the
    /// source returned as the wait ended is kept for the next call, never lost.
    private func next(until deadline: UInt64?) async throws -> NotifyEntry? {
        if let entry = pending {
            pending = nil
            return entry
        }
        guard let deadline else { return try await source.next() }
        let wall = wallClock.now.microseconds
        guard deadline > wall else { return nil }
        let source = self.source
        var late: Result<NotifyEntry, any Error>?
        let read = await withTimer(.microseconds(Int64(deadline - wall)), on: clock, keepingLate: &late) {
            do { return .success(try await source.next()) } catch { return .failure(error) }
        }
        if case .success(let entry)? = late { pending = entry }
        return try read?.get()
    }

    /// Runs `event` through a ``RetryMachine``: `done` once it is delivered or failed for
    /// good; false when the task was stopped first.
    private func deliver(
        _ event: NotifyEvent, now: () -> Duration, start: C.Instant, done: @DaemonActor () -> Void
    ) async -> Bool {
        let delivery = self.delivery
        return await attempt(
            Self.describe(event), { await delivery.deliver(event) }, now: now, start: start, done: done)
    }

    /// Runs one hand-over (`what`, named `describe` in the log) through a ``RetryMachine``.
    private func attempt(
        _ describe: String, _ what: @DaemonActor () async -> DeliveryOutcome, now: () -> Duration, start: C.Instant,
        done: @DaemonActor () -> Void
    ) async -> Bool {
        var machine = RetryMachine(giveUp: target.giveUp)
        var actions = machine.handle(.event, now: now())
        while !actions.isEmpty {
            switch actions.removeFirst() {
            case .deliver:
                let outcome = await what()
                // Stopped mid-delivery: not committed, so sent again at the next start.
                if Task.isCancelled { return false }
                actions += machine.handle(.outcome(outcome), now: now())
            case .commit:
                done()
            case .wait(let until):
                do { try await clock.sleep(until: start.advanced(by: until), tolerance: nil) } catch { return false }
                actions += machine.handle(.timer, now: now())
            case .logRetry(let why, let delay):
                log.log(
                    .warning,
                    "\(target.name): \(describe) not delivered (\(why)); trying again in \(NumberText.duration(seconds: delay.seconds))"
                )
            case .logFailure(let why):
                log.log(.error, "\(target.name): \(describe) not delivered: \(why); not trying again")
            case .logUndeliverable(let why):
                log.log(
                    .error,
                    "\(target.name): \(describe) undeliverable: not delivered within \(NumberText.duration(seconds: target.giveUp.seconds)) of its first try (\(why)); skipped"
                )
            }
        }
        return true
    }

    /// `cpu-hot firing on rack1 (thermal:thermal_zone0)`, as logs name an event.
    static func describe(_ e: NotifyEvent) -> String {
        "\(e.rule) \(e.kind.rawValue) on \(e.host.isEmpty ? "?" : e.host) (\(e.sensor))"
    }
}
