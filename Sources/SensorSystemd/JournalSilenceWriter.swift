public import SensorCore
public import SensorRuntime

/// Writes silence entries to the journal (SPEC §21). Unlike events, a silence has no
/// fallback: one that journald did not take does not exist, so the person is told.
public struct JournalSilenceWriter: Sendable {
    /// Why the journal did not take a silence.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, for a person.
        public var description: String
        /// The call journald refused, with its errno; nil when no journald listens.
        public var refusal: SystemError? = nil
    }

    private let socketPath: String

    /// - Parameter socketPath: the socket whose presence means journald listens.
    public init(socketPath: String = JournalAlertSink.defaultSocketPath) {
        self.socketPath = socketPath
    }

    /// Sends the entry of `silence`.
    public func write(_ silence: Silence) throws(WriteError) {
        // sd_journal_sendv returns 0 and drops the entry when nobody listens (SPEC §7).
        if let missing = SystemJournal.missing(socketPath: socketPath) {
            throw WriteError(
                description: missing + ": the silence was not kept (a silence is a journal entry); "
                    + "start systemd-journald (systemctl start systemd-journald) and give the command again")
        }
        let r = JournalAlertSink.sendv(JournalFields.fields(for: silence))
        guard r >= 0 else {
            let refusal = SystemError(.call("sd_journal_sendv"), errno: -r)
            throw WriteError(
                description: "sending to the journal failed: \(refusal.reason); the silence was not kept",
                refusal: refusal)
        }
    }
}
