public import SensorCore
public import SensorRuntime

/// One target's way of handing over an event: a program run, an HTTP request.
///
/// Contract: ``deliver(_:)`` makes one attempt and says how it ended; it never retries
/// (the lane's ``RetryMachine`` does), bounds itself by the target's timeout on the
/// injected clock, and when its task is cancelled it stops the attempt (a running program
/// gets SIGTERM) and returns promptly, its outcome then ignored.
@DaemonActor
public protocol NotifyDelivery: AnyObject, Sendable {
    /// One attempt at `event`.
    func deliver(_ event: NotifyEvent) async -> DeliveryOutcome

    /// The target's timeout, which bounds each attempt. The target's identity leaves it out
    /// (``NotifyTarget/key``), so a reload that changes only the timeout keeps the delivery
    /// and its lanes and sets it here, for the attempts that start afterwards.
    var timeout: Duration { get set }

    /// Work the target does between events (Alertmanager's minute re-send), until the task
    /// is cancelled; most targets have none and return at once.
    func maintain() async

    /// At the notifier's stop, once its lanes have ended: what a stopped attempt left running
    /// (a program given SIGTERM) gets `limit` to end, and is then killed, so that nothing
    /// outlives `notify` (SIGTERM stops it within a second). Most targets leave nothing.
    func release(within limit: Duration) async

    /// Hands over a silence entry (SPEC §21), a new silence or its expiry: one attempt, as
    /// for events. Most targets have nothing to do (the lane holds their events back).
    func silence(_ silence: Silence) async -> DeliveryOutcome
}

extension NotifyDelivery {
    /// Nothing to do between events.
    public func maintain() async {}

    /// Nothing left running.
    public func release(within limit: Duration) async {}

    /// Nothing to hand over: the lane holds back what silences match.
    public func silence(_ silence: Silence) async -> DeliveryOutcome { .delivered }
}
