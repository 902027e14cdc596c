/// What a key asks of `top` beyond its own view: the command does these.
enum TopAction: Sendable, Hashable {
    case quit
    /// Ctrl-L: draw the whole screen again.
    case repaint
    /// Enter on a row: show its details (which read the journal).
    case details(sensor: String)
    /// `s` answered: silence `rule` on `sensor` for `duration` (as `silence add` does).
    case silence(rule: String, sensor: String, duration: String)
}
