public import SensorRuntime

/// Writes each entry as `<N>message` lines to a file descriptor (stderr by default), every
/// line of a multi-line message with the prefix, as sd-daemon's stderr convention reads it.
public struct StreamLog: DaemonLog {
    private let stream: StreamAlertSink

    /// - Parameter stream: the writer that also carries the alert events there.
    public init(stream: StreamAlertSink = StreamAlertSink()) { self.stream = stream }

    /// Writes the entry, each line of its message with its `<N>` prefix, written whole.
    public func write(_ entry: LogEntry) {
        stream.write(line: PriorityLine.text(for: entry))
    }
}
