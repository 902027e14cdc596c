public import SensorCore
public import SensorRuntime

/// The fixed 128-bit `MESSAGE_ID`s sensorwatch writes to the journal, one per kind of entry.
///
/// These are the only copy in code; `systemd/sensorwatch.catalog` explains each one for
/// `journalctl -x` and must use the same ids (a test compares the two). Never change an id:
/// users filter on them (`journalctl MESSAGE_ID=…`).
public enum JournalMessageID: String, Sendable, CaseIterable {
    /// An alert started firing.
    case firing = "f96e031d73b04032b5e2b8ab87332769"
    /// A firing alert resolved.
    case resolved = "e4eda26d66284e999fe0af5ec5782b44"
    /// A firing alert was sent again (`repeat:`).
    case `repeat` = "0787280739f14696816e8cf0a24bcd6c"
    /// A sensor started failing to read, or reads again.
    case sensorFault = "561c305408854a5aa1633061d1794bd7"
    /// A reloaded configuration was invalid; the old one keeps running.
    case configReloadFailed = "3fce295f7da14aec83c51a0fba31a6be"
    /// The kept alert state could not be read or written.
    case stateFile = "274a6862aed047c088b8defc36102ea6"
    /// Sensors are left unread: the process may not open more files.
    case openFileLimit = "5ceae26f25ee44e1a107894b4222b4f4"
    /// A person silenced some alerts, or ended a silence (SPEC §21).
    case silence = "9b1e4c2a7d5f4e0b8a36c1f2e7d49a50"
    /// A sensor's device appeared while the daemon runs (SPEC §20).
    case sensorAppeared = "3c8d5e0a9b2f4d17a6e1c4b7f0925d38"
    /// A sensor's device went while the daemon runs (SPEC §20).
    case sensorGone = "a71f2c6e58d34b09b3e7d1c0f46a8e25"
    /// A new record of a BMC's System Event Log (SPEC §23).
    case bmcEventLog = "f94fedf0fe46423d8e613b921bf8e25a"

    /// The id of the entry an alert event of `kind` makes.
    public init(_ kind: EventKind) {
        switch kind {
        case .firing: self = .firing
        case .resolved: self = .resolved
        case .repeat: self = .repeat
        }
    }

    /// The id of a daemon log entry of `kind`.
    public init(_ kind: LogEntryKind) {
        switch kind {
        case .configReloadFailed: self = .configReloadFailed
        case .stateFile: self = .stateFile
        case .openFileLimit: self = .openFileLimit
        case .bmcEventLog: self = .bmcEventLog
        }
    }

    /// The alert event kind this id stands for, nil for ids that are not alert events.
    public var eventKind: EventKind? {
        switch self {
        case .firing: return .firing
        case .resolved: return .resolved
        case .repeat: return .repeat
        case .sensorFault, .configReloadFailed, .stateFile, .openFileLimit, .silence, .sensorAppeared, .sensorGone,
            .bmcEventLog:
            return nil
        }
    }
}
