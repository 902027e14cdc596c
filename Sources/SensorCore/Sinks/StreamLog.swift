/// Writes each entry as `<N>message` lines to a file descriptor (stderr by default), every
/// line of a multi-line message with the prefix, as sd-daemon's stderr convention reads it.
public import SensorRuntime

/// Writes log entries as `<N>message` lines to a file descriptor, stderr by default.
public struct StreamLog: DaemonLog {
    private let stream: StreamAlertSink

    /// - Parameter stream: the writer that also carries the alert events there.
    public init(stream: StreamAlertSink = StreamAlertSink()) { self.stream = stream }

    /// Writes the entry, each line of its message with its `<N>` prefix, written whole.
    public func write(_ entry: LogEntry) {
        stream.write(line: Self.lines(entry))
    }

    /// The text written for `entry`: each line of its message with the `<N>` prefix, so no
    /// text it quotes starts a line of another priority; `\r` and the other control
    /// characters escaped (``DisplayText``), so `\r\n` is no line break either.
    public static func lines(_ entry: LogEntry) -> String {
        DisplayText.escapedLines(entry.message).split(separator: "\n", omittingEmptySubsequences: false)
            .map { "<\(entry.level.priority)>" + $0 }.joined(separator: "\n")
    }
}
