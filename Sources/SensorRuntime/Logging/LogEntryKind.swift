/// What a daemon log entry is about, for the kinds that have a `MESSAGE_ID` of their own
/// (SPEC §7), so `journalctl -x` can explain them and `journalctl MESSAGE_ID=…` finds them.
///
/// Named by the logger at the call site, never guessed from the level: an error is not
/// necessarily a rejected reload.
public enum LogEntryKind: Sendable, Hashable, CaseIterable {
    /// A reloaded configuration was invalid; the old one keeps running.
    case configReloadFailed
    /// The kept alert state could not be read or written, or can again.
    case stateFile
    /// Sensors are left unread because the process may not open more files.
    case openFileLimit
    /// A new record of a BMC's System Event Log (SPEC §23).
    case bmcEventLog
}
