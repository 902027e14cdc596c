import CSystemd
import SensorCore
import SensorRuntime
import SensorConfig
/// Reads a silence from the journal entry an sd-journal handle is on (SPEC §21), for every
/// reader of silences: `silence list`, `history`, `status` and `notify`'s lanes; the fields
/// are decoded by ``JournalEntryDecoder``.
enum JournalSilenceEntry {
    /// The journal match of silence entries (with `SYSLOG_IDENTIFIER=sensorwatch`).
    static let match = "MESSAGE_ID=" + JournalMessageID.silence.rawValue

    /// What reading an entry found.
    enum Reading {
        /// A silence written by the daemon's side, and the host whose journal it came from.
        case silence(Silence, host: String)
        /// A silence entry that its trusted fields say someone else wrote: skipped.
        case untrusted
        /// Not a readable silence (no id, a bad time or glob): skipped.
        case unreadable(JournalEntryError)
    }

    private static let wanted = JournalEntryFields(JournalEntryDecoder.silenceFieldNames)

    /// The current entry of `j`, trusted or not: the same check as for alerts (SPEC §17's
    /// trust, ``JournalTrust``), so a silence counts exactly when an alert of its writer would.
    static func read(_ j: OpaquePointer, trust: inout JournalTrustCheck) -> Reading {
        let entry = wanted.read(j)
        let cursor = trust.needsCursor ? JournalEventFollower.cursor(of: j) : nil
        guard case .trusted = trust.verdict(entry, cursor: cursor) else { return .untrusted }
        do {
            return .silence(try JournalEntryDecoder.silence(entry), host: entry["_HOSTNAME"] ?? "")
        } catch {
            return .unreadable(error)
        }
    }
}
