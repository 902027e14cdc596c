import CLinux
import Glibc
import SensorRuntime
import Synchronization

#if canImport(Glibc)
#endif

/// Unix signals as an asynchronous sequence, none lost between the start of the process and
/// the first read: the one way `run`, `record` and `notify` take their signals.
///
/// Contract: ``route(_:)`` runs first in `main` (``CLI/prepare(_:)``), before any other
/// thread exists and before anything slow: from then on a signal is never ignored and never
/// takes its default action; its handler writes it into a pipe (`sw_signal_pipe`), where
/// it waits, however early it came, until the source reads the pipe and yields it to
/// ``stream``. The disposition is never `SIG_IGN`, which made the kernel discard a SIGTERM
/// sent before the old dispatch signal source was registered (the daemon then ran on).
///
/// The pipe is read by a thread of its own, blocked in poll(2) until a signal comes: not a
/// dispatch source, whose handler needs the main queue drained or a libdispatch worker (the
/// first worker starts libdispatch's pool monitor, which wakes the process every second for
/// good; see ``DaemonExecutor``).
final class SignalSource<Element: Sendable>: Sendable {
    /// Each signal delivered, as `element(signal)` made it; buffered until read.
    let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation

    /// Routes `signals` into the process's signal pipe from now on; returns its read end
    /// (or -errno, when no pipe can be made: the signals then keep their default action).
    @discardableResult
    static func route(_ signals: [Int32]) -> Int32 {
        var fd: Int32 = -1
        for sig in signals { fd = sw_signal_pipe(sig) }
        return fd
    }

    /// Delivers each of `signals` to ``stream``, with those that came since ``route(_:)``
    /// first.
    ///
    /// - Throws: ``SystemError`` when the reading thread could not be made.
    init(_ signals: [Int32], as element: @escaping @Sendable (Int32) -> Element) throws(SystemError) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        self.stream = stream
        self.continuation = continuation
        // Routing again is harmless; it covers a caller that did not route in `main`.
        let fd = Self.route(signals)
        guard fd >= 0 else { return }
        try DetachedThread.start("reading signals") {
            var bytes = [UInt8](repeating: 0, count: 64)
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while true {
                if poll(&ready, 1, -1) < 0, errno != EINTR { return }
                while true {
                    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { break }
                    for byte in bytes[0..<n] {
                        if case .terminated = continuation.yield(element(Int32(byte))) { return }
                    }
                }
            }
        }
    }

    /// Stops delivering signals and ends ``stream``. A later signal still goes into the
    /// pipe: a late one cannot kill a process that is shutting down cleanly.
    func cancel() {
        continuation.finish()
    }
}
