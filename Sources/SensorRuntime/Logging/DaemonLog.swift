/// Where the daemon's own messages go (a rejected reload, a file it cannot write): the
/// journal, stderr, memory in tests.
///
/// Contract for implementations: `write` delivers or falls back, it never drops silently;
/// it may be called from any thread, concurrently, and must not block for long (the rule
/// loop and poll threads call it). The entry's ``LogEntry/kind`` decides its `MESSAGE_ID`,
/// its ``LogEntry/level`` only its priority.
public protocol DaemonLog: Sendable {
    /// Delivers one entry.
    func write(_ entry: LogEntry)
}

extension DaemonLog {
    /// Logs `message` at `level`, as being about `kind`, from the caller's source location.
    public func log(
        _ level: LogLevel, _ message: String, kind: LogEntryKind? = nil,
        file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        write(
            LogEntry(
                level: level, message: message, kind: kind,
                location: CodeLocation(file: file, line: line, function: function)))
    }
}
