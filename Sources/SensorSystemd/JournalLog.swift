public import SensorRuntime

/// The daemon's log in the journal: each entry through ``JournalAlertSink`` (so it falls
/// back to stderr as events do), `MESSAGE_ID` from the entry's kind, `CODE_*` from where it
/// was logged.
public struct JournalLog: DaemonLog {
    private let sink: JournalAlertSink

    /// - Parameter sink: the sink the alert events go through.
    public init(sink: JournalAlertSink) { self.sink = sink }

    /// Sends the entry through the sink, falling back to stderr as events do.
    public func write(_ entry: LogEntry) { sink.log(entry) }
}
