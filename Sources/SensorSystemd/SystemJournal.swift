/// Whether the local journal is there to read and write: `history` and `silence` say so
/// instead of answering as if all were well (an empty history, "no active silences") when
/// journald is not running at all, as in a container or a chroot.
public enum SystemJournal {
    /// Why the local journal cannot be used — `no journal: systemd-journald is not running
    /// (no /run/systemd/journal/socket)` — or nil when journald listens.
    ///
    /// - Parameter socketPath: the socket whose presence means journald listens.
    public static func missing(socketPath: String = JournalAlertSink.defaultSocketPath) -> String? {
        JournalAlertSink.isSocket(socketPath) ? nil : "no journal: systemd-journald is not running (no \(socketPath))"
    }
}
