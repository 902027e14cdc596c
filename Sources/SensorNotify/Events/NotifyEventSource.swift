public import SensorRuntime

/// The journal one notification lane reads its alert entries from, in journal order.
///
/// Contract: ``next()`` returns the first alert entry after the source's position and
/// moves past it, waiting (without polling) for one to be written when there is none;
/// it throws `CancellationError` promptly when its task is cancelled, and a read error
/// otherwise. Each lane has a source of its own: lanes move at their own pace.
@DaemonActor
public protocol NotifyEventSource: AnyObject, Sendable {
    /// The next alert entry, waiting for it.
    func next() async throws -> NotifyEntry

    /// The cursor of the entry the source is on (the last one returned, or where it was
    /// positioned), nil when the journal has no alert entry yet: what a new target keeps
    /// as its starting point.
    var position: String? { get }
}
