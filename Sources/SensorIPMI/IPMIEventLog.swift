import Synchronization

/// Tells a BMC's new System Event Log records from those already seen (SPEC §23): the
/// records there at the first start are counted, not logged; after that each record after
/// the last one seen is logged once. The position comes from the state file at start and
/// goes back to it with each change, so a restart logs none twice.
public final class IPMIEventLog: Sendable {
    private let sink: any IPMIEventLogSink
    /// The last record id seen; nil before the first look at a BMC never seen before.
    private let last: Mutex<Int?>
    /// The last record id handed to the sink to keep.
    private let kept: Mutex<Int?>
    /// How many records the first look found and counted without logging them; nil before
    /// it, and until the sink was told.
    private let counted = Mutex<(found: Int, told: Bool)?>(nil)

    /// - Parameters:
    ///   - position: the last record id seen, from the state file; nil for a BMC never seen.
    ///   - sink: the journal and the state file.
    public init(position: Int?, sink: any IPMIEventLogSink) {
        self.sink = sink
        last = Mutex(position)
        kept = Mutex(position)
    }

    /// The records of `all` (the whole log, in order) not seen before; remembers the newest.
    /// A log that no longer holds the last record seen was cleared: all of it is new.
    func newEntries(_ all: [IPMIEventLogEntry]) -> [IPMIEventLogEntry] {
        last.withLock { last in
            guard let seen = last else {
                counted.withLock { $0 = (all.count, false) }
                last = all.last?.recordID ?? 0
                return []
            }
            guard let newest = all.last, newest.recordID != seen else { return [] }
            let fresh = all.firstIndex { $0.recordID == seen }.map { Array(all[($0 + 1)...]) } ?? all
            last = newest.recordID
            return fresh
        }
    }

    /// Logs `entries` (from ``newEntries(_:)``) and keeps the position when it moved (the
    /// first look's too, so records added while the daemon is down are logged at its start).
    func write(_ entries: [IPMIEventLogEntry], bmc: String) {
        let first = counted.withLock { c -> Int? in
            guard let found = c?.found, c?.told == false else { return nil }
            c?.told = true
            return found
        }
        if let first { sink.counted(first, bmc: bmc) }
        if !entries.isEmpty { sink.log(entries, bmc: bmc) }
        guard let now = position,
            kept.withLock({ k in
                k == now
                    ? false
                    : {
                        k = now; return true
                    }()
            })
        else { return }
        sink.keep(position: now, bmc: bmc)
    }

    /// The records found at the first look and not logged.
    public var countedAtStart: Int { counted.withLock { $0?.found ?? 0 } }

    /// The last record id seen (what the state file keeps); nil before the first look.
    public var position: Int? { last.withLock { $0 } }
}
