public import SensorRuntime

/// Counts the journal entries `notify` skipped as look-alikes (``JournalTrust``) and warns
/// about them at most once a minute on the injected clock (SPEC §17): a flood of forged
/// entries must not become a flood of log entries.
///
/// Every lane reads every entry, so an entry is counted once however many lanes skip it:
/// the cursors of the last entries counted are kept (a bounded set; lanes read the same
/// entries at nearly the same time).
@DaemonActor
public final class JournalLookAlikeTally<C: RunClock> {
    /// The shortest time between two warnings.
    public static var interval: Duration { .seconds(60) }
    /// How many cursors are kept to count an entry once.
    static var remembered: Int { 1024 }

    private let clock: C
    private let log: any DaemonLog
    private var lastWarning: C.Instant?
    /// Entries counted since the last warning.
    private var unreported = 0
    /// Entries counted since the start.
    public private(set) var total = 0
    private var seen: Set<String> = []
    private var order: [String] = []
    private var next = 0

    /// A tally that has counted nothing; it warns through `log`, paced on `clock`.
    public init(clock: C, log: any DaemonLog) {
        self.clock = clock
        self.log = log
    }

    /// Counts the entry at `cursor`, skipped for `reason`; warns when the last warning is a
    /// minute old (or there was none).
    public func skipped(cursor: String, reason: String) {
        guard seen.insert(cursor).inserted else { return }
        if order.count < Self.remembered {
            order.append(cursor)
        } else {
            seen.remove(order[next])
            order[next] = cursor
            next = (next + 1) % Self.remembered
        }
        total += 1
        unreported += 1
        let now = clock.now
        if let last = lastWarning, last.duration(to: now) < Self.interval { return }
        lastWarning = now
        let n = unreported
        unreported = 0
        log.log(
            .warning,
            "skipped \(n) look-alike alert entr\(n == 1 ? "y" : "ies") the daemon did not write (\(total) since the start; the last: \(reason)); see TRUST in man sensorwatch"
        )
    }
}
