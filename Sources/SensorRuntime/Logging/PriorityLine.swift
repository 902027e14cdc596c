/// The one writer of sd-daemon's `<N>` lines (sd-daemon(3)): under systemd, stderr goes to
/// the journal and each line's prefix is its priority, so an event, a fault or a daemon
/// message that reaches stderr keeps the rank its journal entry has (`PRIORITY=`).
///
/// Priorities are ``LogLevel``'s names, never bare numbers. Every line of a text gets the
/// prefix, after ``DisplayText`` escaped its control characters: a line break quoted from
/// outside (a label holding `\n<0>forged`) starts no line of another priority. The lines of
/// alert events, faults and presence are in `Sinks/PriorityLine+Events.swift`, beside them.
public enum PriorityLine {
    /// `text` as `<N>` lines of `level`, each line of it prefixed.
    public static func text(_ text: String, at level: LogLevel) -> String {
        DisplayText.escapedLines(text).split(separator: "\n", omittingEmptySubsequences: false)
            .map { "<\(level.priority)>" + $0 }.joined(separator: "\n")
    }

    /// A daemon message's lines, at its entry's level.
    public static func text(for entry: LogEntry) -> String {
        text(entry.message, at: entry.level)
    }
}
