/// A long-running part of the daemon, shaped like swift-service-lifecycle's `Service`.
///
/// Contract: `run()` does the service's work until it is done or its task is cancelled.
/// Cancellation is graceful shutdown: finish what is in hand (drain, flush, report), then
/// return. A thrown error ends the whole ``ServiceGroup``.
public protocol Service: Sendable {
    /// Runs until done or cancelled.
    func run() async throws
}
