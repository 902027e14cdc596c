import CLinux
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Unix signals as an asynchronous sequence, none lost between the start of the process and
/// the first read.
///
/// Contract: ``route(_:)`` runs first in `main` (``CLI/prepare(_:)``), before any other
/// thread exists and before anything slow: from then on a signal is never ignored and never
/// takes its default action; its handler writes it into a pipe (`sw_signal_pipe`), where
/// it waits, however early it came, until a source reads the pipe and yields it to
/// ``stream``. The disposition is never `SIG_IGN`, which made the kernel discard a SIGTERM
/// sent before the old dispatch signal source was registered (the daemon then ran on).
@MainActor
final class SignalSource<Element: Sendable> {
    /// Each signal delivered, as `element(signal)` made it; buffered until read.
    nonisolated let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation
    private var source: (any DispatchSourceRead)?

    /// Routes `signals` into the process's signal pipe from now on; returns its read end
    /// (or -errno, when no pipe can be made: the signals then keep their default action).
    @discardableResult
    nonisolated static func route(_ signals: [Int32]) -> Int32 {
        var fd: Int32 = -1
        for sig in signals { fd = sw_signal_pipe(sig) }
        return fd
    }

    /// Delivers each of `signals` to ``stream``, with those that came since ``route(_:)``
    /// first.
    init(_ signals: [Int32], as element: @escaping @Sendable (Int32) -> Element) {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        self.stream = stream
        self.continuation = continuation
        // Routing again is harmless; it covers a caller that did not route in `main`.
        let fd = Self.route(signals)
        guard fd >= 0 else { return }
        // The main queue: a global queue would start libdispatch's worker pool, whose
        // monitor wakes the process every second.
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                for byte in bytes[0..<n] { continuation.yield(element(Int32(byte))) }
            }
        }
        source.resume()
        self.source = source
    }

    /// Stops delivering signals and ends ``stream``. Later signals still go into the pipe
    /// (unread): a late one cannot kill a process that is shutting down cleanly.
    func cancel() {
        source?.cancel()
        source = nil
        continuation.finish()
    }
}
