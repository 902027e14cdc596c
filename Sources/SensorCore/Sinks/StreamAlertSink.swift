#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime
import Synchronization

/// Writes each event as one line `<N>message` (``PriorityLine``) to a file descriptor
/// (stderr by default).
///
/// The `<N>` prefix is the sd-daemon priority convention: under systemd, stderr goes to the
/// journal with that priority, so nothing is lost even without the journal sink. On a
/// terminal (`terminal` given) each line is shown for a person instead (``TerminalLine``).
public final class StreamAlertSink: AlertSink {
    private let fd: Int32
    private let terminal: TerminalLine?
    private let lock = Mutex<Void>(())

    /// - Parameters:
    ///   - fd: the descriptor to write to; it is not closed.
    ///   - terminal: how to show lines on a terminal; nil: `<N>message` as it stands.
    public init(fd: Int32 = 2, terminal: TerminalLine? = nil) {
        self.fd = fd
        self.terminal = terminal
    }

    /// Writes the event's message with its priority.
    public func emit(_ event: AlertEvent) {
        write(line: PriorityLine.text(for: event))
    }

    /// Writes the fault at priority warning, or its recovery at notice.
    public func emit(_ fault: SensorFault) {
        write(line: PriorityLine.text(for: fault))
    }

    /// Writes the appearance or disappearance at priority notice.
    public func emit(_ presence: SensorPresence) {
        write(line: PriorityLine.text(for: presence))
    }

    /// Writes one line whole, retrying short writes and EINTR. Control characters are
    /// escaped (``DisplayText``), so only the line breaks of `line` and the terminal's own
    /// colours reach the descriptor: nothing in an event or a log entry can start a line.
    public func write(line: String) {
        let text = DisplayText.escapedLines(line)
        var bytes = Array((terminal?.render(text) ?? text).utf8)
        bytes.append(0x0A)
        lock.withLock { _ in _ = FileDescriptorWriter.writeAll(fd, bytes) }
    }
}
