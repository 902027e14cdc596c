public import SensorRuntime
public import SensorCore

/// What the daemon shows a ``ModelPublisher`` of itself: the model of now, the alerts, the
/// clock. Everything on the daemon's actor; a publisher only reads.
@DaemonActor
public struct DaemonModel {
    /// The latest value, time and health of every sensor.
    public let data: SensorData
    /// Unix time (seconds) of the run's time zero: turns run times (``Timestamp``) into Unix times.
    public let started: Double
    /// The time of day.
    public let wallClock: any WallClock
    /// The injected clock (a test's virtual one) and the daemon's start on it: how long the
    /// daemon has run, and the clock to sleep on.
    public let runTime: RunTime
    /// Where the daemon's own messages go.
    public let log: any DaemonLog
    let ledger: AlertLedger
    let engine: @DaemonActor () -> RuleEngine

    /// Every pending or firing alert now, as the status file lists them, without values.
    public func activeAlerts() -> [StatusAlert] {
        StatusReport.activeAlerts(
            engine: engine(), started: started, firingSince: { [ledger] in ledger.firingSince($0) })
    }

    /// Reads, under observation, what changes when an alert fires or resolves.
    public func observeAlerts() { _ = ledger.firingCount }
}

/// Serves the daemon's model to readers outside the process (the live stream, SPEC §22):
/// the seam through which a module above SensorCore adds a service to `run`.
///
/// Requirement: ``service(for:)`` is called once, when the daemon is set up; the service
/// runs in the daemon's ``ServiceGroup`` and must never make the daemon wait for a reader.
public protocol ModelPublisher: Sendable {
    /// The service that publishes `model`.
    @DaemonActor func service(for model: DaemonModel) -> any Service
}
