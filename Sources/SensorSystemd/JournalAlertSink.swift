import CSystemd
import Glibc
public import SensorCore
public import SensorNotify
public import SensorRuntime
import Synchronization

#if canImport(Glibc)
#endif

/// Sends every alert event and sensor fault to the systemd journal as one structured entry.
///
/// `sd_journal_sendv` returns 0 and drops the entry when no journald listens, so before each
/// send the sink checks that the journal socket exists; when it is missing, or a send fails
/// (negative return, counted), the entry goes to the fallback stream as a `<N>message` line
/// instead, and a note on stderr says so once. As soon as the socket is back, entries go to
/// the journal again, and a journal entry reports how many went to the fallback meanwhile.
/// Nothing is dropped silently.
public final class JournalAlertSink: AlertSink {
    /// The journal socket journald listens on; `sd_journal_sendv` always sends there.
    public static let defaultSocketPath = "/run/systemd/journal/socket"

    private let fallback: StreamAlertSink
    /// A person's terminal (`run` in the foreground): events the journal took are shown
    /// there too (SPEC §19); nil under systemd, where stderr is the journal itself.
    private let echo: StreamAlertSink?
    private let socketPath: String
    private let send: @Sendable ([String]) -> Int32
    private let wake: NotifyWakeSender?
    private let state = Mutex<State>(State())

    /// - Parameters:
    ///   - fallback: where entries go while the journal is unreachable (stderr by default).
    ///   - socketPath: the socket whose presence means journald listens; tests point it at
    ///     a missing path to force the fallback.
    ///   - echo: where events also go when the journal took them (a terminal), or nil.
    ///   - wake: woken after each alert event the journal took (a running `notify`), or nil.
    public convenience init(
        fallback: StreamAlertSink = StreamAlertSink(), socketPath: String = JournalAlertSink.defaultSocketPath,
        echo: StreamAlertSink? = nil, wake: NotifyWakeSender? = nil
    ) {
        self.init(fallback: fallback, socketPath: socketPath, echo: echo, wake: wake, send: JournalAlertSink.sendv)
    }

    /// For tests: `send` stands in for `sd_journal_sendv` (returns 0 or a negative errno).
    init(
        fallback: StreamAlertSink, socketPath: String, echo: StreamAlertSink? = nil, wake: NotifyWakeSender? = nil,
        send: @escaping @Sendable ([String]) -> Int32
    ) {
        self.fallback = fallback
        self.echo = echo
        self.socketPath = socketPath
        self.wake = wake
        self.send = send
    }

    /// Sends the event to the journal, or to the fallback stream; once the journal took it, echoes it on a person's terminal (if any) and wakes `notify`.
    public func emit(_ event: AlertEvent) {
        let journaled = deliver(
            JournalFields.fields(for: event),
            line: PriorityLine.text(for: event), echoed: true)
        // After the send, so the entry is on its way to journald when notify looks.
        if journaled { wake?.send() }
    }

    /// Sends the fault or recovery to the journal, or to the fallback stream.
    public func emit(_ fault: SensorFault) {
        deliver(
            JournalFields.fields(for: fault),
            line: PriorityLine.text(for: fault))
    }

    /// Sends the appearance or disappearance to the journal at priority notice, or to the fallback stream.
    public func emit(_ presence: SensorPresence) {
        deliver(
            JournalFields.fields(for: presence),
            line: PriorityLine.text(for: presence))
    }

    /// Logs a plain daemon message (``JournalLog`` is the way the daemon does it), with the
    /// same fallback as events.
    ///
    /// - Parameters:
    ///   - entry: its level gives `PRIORITY`, its kind `MESSAGE_ID`, its location `CODE_*`.
    ///   - extra: further `(NAME, value)` fields; names must be `[A-Z0-9_]+`.
    public func log(_ entry: LogEntry, extra: [(String, String)] = []) {
        deliver(
            JournalFields.fields(
                message: entry.message, priority: entry.level.priority, id: entry.kind.map(JournalMessageID.init),
                extra: extra, at: entry.location),
            line: PriorityLine.text(for: entry))
    }

    /// What the sink has done so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether the journal took the entry (else it went to the fallback).
    @discardableResult
    // `line` is made only where it is written (the echo, the fallback): under systemd the
    // journal takes the entry and nobody watches, so the message is not built a second time.
    private func deliver(_ fields: [String], line: @autoclosure () -> String, echoed: Bool = false) -> Bool {
        state.withLock { s -> Bool in
            var result: Int32 = 0
            let present = Self.isSocket(socketPath)
            if present {
                result = send(fields)
                if result >= 0 {
                    s.statistics.sent += 1
                    if echoed { echo?.write(line: line()) }
                    if s.down {
                        s.down = false
                        let note =
                            "journal reachable again; "
                            + Count.of(s.statistics.fallbackWrites, "entry", plural: "entries") + " went to stderr, "
                            + Count.of(s.statistics.sendFailures, "send") + " failed so far"
                        _ = send(
                            JournalFields.fields(
                                message: note, priority: LogLevel.notice.priority, id: nil, at: CodeLocation()))
                    }
                    return true
                }
                s.statistics.sendFailures += 1
                s.statistics.lastError = -result
            }
            if !s.down {
                s.down = true
                let why =
                    present
                    ? "sending to the journal failed: \(ErrnoText.words(-result))"
                    : "no journal socket at \(socketPath)"
                fallback.write(line: PriorityLine.text("sensorwatch: \(why); writing events to stderr", at: .warning))
            }
            s.statistics.fallbackWrites += 1
            fallback.write(line: line())
            return false
        }
    }

    static func isSocket(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFSOCK
    }

    static let sendv: @Sendable ([String]) -> Int32 = { fields in
        IovecPacking.withIovecs(fields) { iov in sd_journal_sendv(iov.baseAddress, Int32(iov.count)) }
    }

    private struct State {
        var down = false
        var statistics = Statistics()
    }
}
