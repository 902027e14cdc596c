import Glibc
import SensorRuntime

#if canImport(Glibc)
#endif

/// The process's own terminal: frames go to `output` (standard output), the size comes from
/// the kernel's `TIOCGWINSZ`, which a resize (SIGWINCH) changes.
public struct TTYTerminal: Terminal {
    /// The descriptor written to.
    public let output: Int32

    /// The terminal on `output` (standard output by default).
    public init(output: Int32 = 1) {
        self.output = output
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The size now (``Terminal/size()``).
    public func size() -> TerminalSize? {
        var w = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &w) == 0, w.ws_row > 0, w.ws_col > 0 else { return nil }
        return TerminalSize(rows: Int(w.ws_row), columns: Int(w.ws_col))
    }

    /// Writes `bytes` (``Terminal/write(_:)``).
    public func write(_ bytes: [UInt8]) {
        // One write(2) for the whole frame; the writer goes on only after a short write.
        FileDescriptorWriter.writeAll(output, bytes)
    }
}
