/// How much a daemon log entry matters, as syslog and the journal rank it (`PRIORITY=`).
///
/// No `emergency` or `alert`: those are for a system that is unusable, which a sensor
/// monitor never decides.
public enum LogLevel: Int, Sendable, Hashable, CaseIterable {
    /// The daemon cannot do its work (e.g. a sensor it monitors is blind).
    case critical = 2
    /// Something failed and was not done (a reload rejected).
    case error = 3
    /// Something failed and was worked around (state not kept, a file not written).
    case warning = 4
    /// Normal but significant (a problem went away).
    case notice = 5
    /// Informational (a reload done).
    case info = 6
    /// For a developer.
    case debug = 7

    /// The syslog priority number: `<N>` on stderr, `PRIORITY=N` in the journal.
    public var priority: Int { rawValue }
}
