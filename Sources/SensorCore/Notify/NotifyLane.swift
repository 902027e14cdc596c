/// Delivers one target's events from one journal, one at a time, in journal order (SPEC
/// §17): an event that waits to be retried holds back only this lane's later events.
///
/// The lane reads from its own ``NotifyEventSource``, skips what the target's filter does
/// not take, runs each taken event through a ``RetryMachine`` and calls `commit` with the
/// entry's cursor when it is done with it (delivered, failed for good, or given up), which the
/// notifier writes to `notify.json` before the next event: a restart resumes after it.
/// Every wait is on the injected clock.
@DaemonActor
public final class NotifyLane<C: Clock> where C.Duration == Duration {
    private let target: NotifyTarget
    private let source: any NotifyEventSource
    private let delivery: any NotifyDelivery
    private let clock: C
    private let log: any DaemonLog
    private let commit: @DaemonActor (String) -> Void

    /// - Parameters:
    ///   - commit: keeps the cursor of an entry the lane is done with.
    public init(
        target: NotifyTarget, source: any NotifyEventSource, delivery: any NotifyDelivery, clock: C,
        log: any DaemonLog, commit: @escaping @DaemonActor (String) -> Void
    ) {
        self.target = target
        self.source = source
        self.delivery = delivery
        self.clock = clock
        self.log = log
        self.commit = commit
    }

    /// Delivers events until the task is cancelled. A read error is logged and the read
    /// tried again after the back-off's first delay.
    public func run() async {
        let start = clock.now
        func now() -> Duration { start.duration(to: clock.now) }
        while !Task.isCancelled {
            let entry: NotifyEntry
            do {
                entry = try await source.next()
            } catch is CancellationError {
                return
            } catch {
                log.log(.error, "\(target.name): cannot read the journal: \(error)")
                do { try await clock.sleep(for: RetryMachine.firstDelay) } catch { return }
                continue
            }
            // A skipped entry's cursor is not written: reading it again after a restart
            // costs nothing, and a write per skipped entry would.
            guard let event = entry.event, target.filter.matches(event) else { continue }
            var machine = RetryMachine(giveUp: target.giveUp)
            var actions = machine.handle(.event, now: now())
            while !actions.isEmpty {
                switch actions.removeFirst() {
                case .deliver:
                    let outcome = await delivery.deliver(event)
                    // Stopped mid-delivery: not committed, so sent again at the next start.
                    if Task.isCancelled { return }
                    actions += machine.handle(.outcome(outcome), now: now())
                case .commit:
                    commit(entry.cursor)
                case .wait(let until):
                    do { try await clock.sleep(until: start.advanced(by: until), tolerance: nil) } catch { return }
                    actions += machine.handle(.timer, now: now())
                case .logRetry(let why, let delay):
                    log.log(.warning, "\(target.name): \(Self.describe(event)) not delivered (\(why)); trying again in \(EventFormatter.duration(seconds: delay.seconds))")
                case .logFailure(let why):
                    log.log(.error, "\(target.name): \(Self.describe(event)) not delivered: \(why); not trying again")
                case .logUndeliverable(let why):
                    log.log(.error, "\(target.name): \(Self.describe(event)) undeliverable: not delivered within \(EventFormatter.duration(seconds: target.giveUp.seconds)) of its first try (\(why)); skipped")
                }
            }
        }
    }

    /// `cpu-hot firing on rack1 (thermal:thermal_zone0)`, as logs name an event.
    static func describe(_ e: NotifyEvent) -> String {
        "\(e.rule) \(e.kind.rawValue) on \(e.host.isEmpty ? "?" : e.host) (\(e.sensor))"
    }
}
