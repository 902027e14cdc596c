import CSystemd
import SensorCore
import SensorRuntime
import SensorConfig
/// Reads a silence from the journal entry an sd-journal handle is on (SPEC §21), for every
/// reader of silences: `silence list`, `history`, `status` and `notify`'s lanes.
enum JournalSilenceEntry {
    /// The journal match of silence entries (with `SYSLOG_IDENTIFIER=sensorwatch`).
    static let match = "MESSAGE_ID=" + JournalMessageID.silence.rawValue

    /// What reading an entry found.
    enum Reading {
        /// A silence written by the daemon's side.
        case silence(Silence)
        /// A silence entry that its trusted fields say someone else wrote: skipped.
        case untrusted
        /// Not a readable silence (no id, a bad time or glob): skipped.
        case unreadable
    }

    /// The fields read, in the order ``silence(_:)`` takes them.
    static let fieldNames = [
        "SILENCE_ID", "SILENCE_STATE", "SILENCE_RULE", "SILENCE_SENSOR", "SILENCE_HOST", "SILENCE_STARTS",
        "SILENCE_ENDS", "SILENCE_COMMENT", "SILENCE_BY", "_UID", "_SYSTEMD_UNIT", "_HOSTNAME",
    ]
    private static let wanted = JournalEntryFields.names(fieldNames)

    /// The current entry of `j`, trusted or not: the same check as for alerts (SPEC §17's
    /// trust, ``JournalTrust``), so a silence counts exactly when an alert of its writer would.
    static func read(_ j: OpaquePointer, trust: inout JournalTrustCheck) -> Reading {
        let f = JournalEntryFields.read(j, wanted)
        let cursor = trust.needsCursor ? JournalEventFollower.cursor(of: j) : nil
        guard case .trusted = trust.verdict(unit: f[10], uid: f[9], hostname: f[11], cursor: cursor) else {
            return .untrusted
        }
        guard let silence = silence(f) else { return .unreadable }
        return .silence(silence)
    }

    /// The silence of the fields in ``wanted``'s order; nil when one is missing or unreadable.
    static func silence(_ f: [String?]) -> Silence? {
        guard let id = f[0], !id.isEmpty, let starts = f[5].flatMap(microseconds),
            let ends = f[6].flatMap(microseconds)
        else { return nil }
        var globs: [Glob?] = []
        for text in f[2...4] {
            guard let text else {
                globs.append(nil)
                continue
            }
            guard let glob = try? Glob(text) else { return nil }
            globs.append(glob)
        }
        return Silence(
            id: id, rule: globs[0], sensor: globs[1], host: globs[2], startsMicroseconds: starts,
            endsMicroseconds: ends, comment: f[7] ?? "", by: f[8] ?? "", expired: f[1] == "expired")
    }

    /// An RFC 3339 time as microseconds since the Unix epoch; nil if unreadable or before it.
    private static func microseconds(_ text: String) -> UInt64? {
        guard let seconds = RFC3339.parse(text), seconds >= 0, seconds < 1e11 else { return nil }
        return UInt64((seconds * 1e6).rounded())
    }
}
