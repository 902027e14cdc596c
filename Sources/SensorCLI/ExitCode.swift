/// Process exit statuses, after sysexits(3) (SPEC §2).
public struct ExitCode: Error, RawRepresentable, Hashable, Sendable {
    /// The status the process exits with.
    public var rawValue: Int32
    /// The exit status `rawValue`, taken as it is.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: success.
    public static let success = ExitCode(rawValue: 0)
    /// 1: anything else went wrong.
    public static let failure = ExitCode(rawValue: 1)
    /// 1: a monitoring-plugins check's WARNING (`status --check`: a warning alert fires).
    public static let checkWarning = ExitCode(rawValue: 1)
    /// 2: a monitoring-plugins check's CRITICAL (`status --check`: a critical alert fires).
    public static let checkCritical = ExitCode(rawValue: 2)
    /// 3: a monitoring-plugins check's UNKNOWN (`status --check`: no status file, a stale
    /// one, a bad command line).
    public static let checkUnknown = ExitCode(rawValue: 3)
    /// 64 (`EX_USAGE`): bad command line.
    public static let usage = ExitCode(rawValue: 64)
    /// 69 (`EX_UNAVAILABLE`): a library the command needs is not installed (libmosquitto).
    public static let unavailable = ExitCode(rawValue: 69)
    /// 71 (`EX_OSERR`): the system refused what the command needs (a thread).
    public static let osError = ExitCode(rawValue: 71)
    /// 78 (`EX_CONFIG`): bad configuration; the unit does not restart on it.
    public static let config = ExitCode(rawValue: 78)
}
