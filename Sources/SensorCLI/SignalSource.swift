import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Delivers Unix signals to a handler on the main actor instead of interrupting the process.
///
/// The default disposition is set to ignore first so the signal can only arrive through the
/// dispatch source; the sources are kept alive by this object.
@MainActor
final class SignalSource {
    private var sources: [any DispatchSourceSignal] = []

    /// Routes each of `signals` to `handler` from now on.
    init(_ signals: [Int32], handler: @escaping @MainActor @Sendable (Int32) -> Void) {
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { handler(sig) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops delivering signals.
    func cancel() {
        for source in sources { source.cancel() }
        sources = []
    }
}
