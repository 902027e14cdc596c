#if canImport(Glibc)
import Glibc
#endif
public import SensorRuntime

/// How `run` in the foreground on a terminal shows a `<N>message` line to a person (SPEC §19):
/// the local time, the priority's severity word (critical red, warning yellow, without
/// colour when `NO_COLOR` is set), the message. Not on a terminal, lines stay as they are:
/// systemd reads the `<N>` prefix as the priority.
public struct TerminalLine: Sendable {
    /// Whether the severity word is coloured.
    public var colour: Bool
    /// The time of day shown.
    public var wallClock: any WallClock
    /// Turns Unix seconds into `HH:MM:SS` (local time by default; tests pass their own).
    public var clockTime: @Sendable (Double) -> String

    /// A line format with the given colour choice and clocks.
    public init(
        colour: Bool, wallClock: any WallClock,
        clockTime: @escaping @Sendable (Double) -> String = TerminalLine.localClockTime
    ) {
        self.colour = colour
        self.wallClock = wallClock
        self.clockTime = clockTime
    }

    /// Whether colour is wanted: `NO_COLOR` set to anything but the empty string turns it
    /// off (no-color.org), and so does `TERM=dumb`.
    public static func colourWanted(noColor: String?, term: String?) -> Bool {
        (noColor ?? "").isEmpty && term != "dumb"
    }

    /// `<N>message` (each line of it) as the person's line; a line without a prefix keeps
    /// its text after the time.
    public func render(_ text: String) -> String {
        let stamp = clockTime(wallClock.now.seconds)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var priority: Int?
            var message = Substring(line)
            if line.hasPrefix("<"), let close = line.firstIndex(of: ">"),
                let p = Int(line[line.index(after: line.startIndex)..<close]),
                (0...7).contains(p)
            {
                priority = p
                message = line[line.index(after: close)...]
            }
            guard let priority else { return stamp + " " + message }
            let word = Self.words[priority]
            let padding = String(repeating: " ", count: 8 - word.count)
            return stamp + " " + (colour ? Self.paint(priority, word) : word) + padding + " " + message
        }.joined(separator: "\n")
    }

    /// syslog's words for priorities 0…7, as `journalctl -p` takes them.
    private static let words = ["emerg", "alert", "critical", "error", "warning", "notice", "info", "debug"]

    /// Red (bold at 0–2) for critical and worse, yellow for warning; the rest unpainted.
    private static func paint(_ priority: Int, _ word: String) -> String {
        switch priority {
        case 0...2: return "\u{1B}[1;31m" + word + "\u{1B}[0m"
        case 3: return "\u{1B}[31m" + word + "\u{1B}[0m"
        case 4: return "\u{1B}[33m" + word + "\u{1B}[0m"
        default: return word
        }
    }

    /// `HH:MM:SS` in the local time zone.
    public static let localClockTime: @Sendable (Double) -> String = { TimeText.format($0, "%H:%M:%S", local: true) }
}
