import SensorCore
import SensorRuntime
import Synchronization

/// Keeps `state.json`'s parts together (SPEC §8, §23): the firing alerts the ledger hands
/// over and each BMC's last System Event Log record, which its poll thread hands over. Every
/// save writes both, one save at a time (the file has one temporary).
final class StateKeeper: Sendable {
    private let store: StateStore
    private let problems: WriteProblemLog
    private let kept: Mutex<(alerts: [PersistedAlert], eventLog: [String: Int])>

    /// - Parameters:
    ///   - loaded: what the file held at start (kept until something newer comes).
    ///   - problems: says a failed save once, and when saves work again.
    init(store: StateStore, loaded: StateStore.LoadResult, problems: WriteProblemLog) {
        self.store = store
        self.problems = problems
        kept = Mutex((loaded.alerts, loaded.eventLog))
    }

    /// Keeps `alerts` as the firing ones.
    func save(alerts: [PersistedAlert]) {
        kept.withLock { k in
            k.alerts = alerts
            write(k)
        }
    }

    /// Keeps `recordID` as the last record of `bmc`'s log seen.
    func keep(position recordID: Int, bmc: String) {
        kept.withLock { k in
            k.eventLog[bmc] = recordID
            write(k)
        }
    }

    /// The last record of `bmc`'s log seen, nil for a BMC never read.
    func position(of bmc: String) -> Int? { kept.withLock { $0.eventLog[bmc] } }

    private func write(_ k: (alerts: [PersistedAlert], eventLog: [String: Int])) {
        do {
            try store.save(k.alerts, eventLog: k.eventLog)
            problems.note(nil)
        } catch {
            problems.note("\(error)")
        }
    }
}
