public import SensorCore
public import SensorRuntime
import SensorConfig
/// Delivers events to an Alertmanager through its API v2, as Prometheus does (SPEC §17):
/// `firing` and `repeat` post the alert with `endsAt` 4 minutes ahead, `resolved` posts it
/// with `endsAt` at the resolve time; while alerts fire, ``maintain()`` posts them again
/// every minute (Alertmanager resolves an alert that is not re-sent).
///
/// The firing set is handed to `keep` after each change, for `notify.json` (the lane's
/// commit writes it with the cursor, in one write), and given back at the next start. It
/// holds at most ``firingLimit`` alerts: beyond, the oldest is dropped with a warning (not
/// re-sent, Alertmanager resolves it at its `endsAt`), so neither memory, the minute's POST
/// nor `notify.json` grows without bound.
@DaemonActor
public final class AlertmanagerDelivery<C: RunClock>: NotifyDelivery {
    /// How often firing alerts are sent again.
    public static var resendInterval: Duration { .seconds(60) }
    /// How far ahead a firing alert's `endsAt` lies, microseconds (4 min: three re-sends may
    /// be missed before Alertmanager resolves it by itself).
    public static var endsAtLead: UInt64 { 240_000_000 }
    /// How many firing alerts a target keeps (SPEC §17).
    public static var firingLimit: Int { 10_000 }

    private let url: String
    /// How long one POST may take; a reload that changes only it sets it for the next one.
    public var timeout: Duration
    private let poster: any HTTPPoster
    private let clock: C
    private let wallClock: any WallClock
    private let log: any DaemonLog
    private let keep: @DaemonActor ([AlertmanagerAlert]) -> Void
    private var firing: [AlertmanagerAlert.Identity: AlertmanagerAlert]
    private let limit: Int
    private let baseURL: String
    /// Alertmanager's silence ids by sensorwatch's, for the expiry (SPEC §21).
    private var silences: [String: String]
    private let keepSilences: @DaemonActor ([String: String]) -> Void

    /// - Parameters:
    ///   - baseURL: the Alertmanager's base URL (no trailing slash).
    ///   - wallClock: the time of day, for `endsAt`.
    ///   - firing: the firing set kept from the last run (its newest `limit` are taken).
    ///   - limit: how many firing alerts are kept (``firingLimit``; smaller in tests).
    public init(
        baseURL: String, timeout: Duration, poster: any HTTPPoster, clock: C,
        wallClock: any WallClock,
        log: any DaemonLog, firing: [AlertmanagerAlert], limit: Int = AlertmanagerDelivery.firingLimit,
        keep: @escaping @DaemonActor ([AlertmanagerAlert]) -> Void,
        silences: [String: String] = [:], keepSilences: @escaping @DaemonActor ([String: String]) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.silences = silences
        self.keepSilences = keepSilences
        self.url = baseURL + "/api/v2/alerts"
        self.timeout = timeout
        self.poster = poster
        self.clock = clock
        self.wallClock = wallClock
        self.log = log
        self.keep = keep
        self.limit = max(1, limit)
        self.firing = Dictionary(firing.map { ($0.identity, $0) }, uniquingKeysWith: { _, last in last })
        var dropped = 0
        while self.firing.count > self.limit, let oldest = oldestFiring {
            self.firing[oldest.identity] = nil
            dropped += 1
        }
        if dropped > 0 {
            log.log(
                .warning,
                "\(url): \(dropped) of the kept firing alerts dropped, the oldest: a target keeps at most \(self.limit)"
            )
        }
    }

    /// The alert firing longest (the earliest `startsAt`; ties in the stable order).
    private var oldestFiring: AlertmanagerAlert? {
        firing.values.min { ($0.startsAt, $0.rule, $0.sensor, $0.host) < ($1.startsAt, $1.rule, $1.sensor, $1.host) }
    }

    /// The alerts firing now, in a stable order.
    public var firingAlerts: [AlertmanagerAlert] {
        firing.values.sorted { ($0.rule, $0.sensor, $0.host) < ($1.rule, $1.sensor, $1.host) }
    }

    /// Posts the event as one alert (a `resolved` ends it now) and, once delivered, updates the firing set the minute's re-send works from.
    public func deliver(_ event: NotifyEvent) async -> DeliveryOutcome {
        let id = AlertmanagerAlert.Identity(rule: event.rule, sensor: event.sensor, host: event.host)
        let known = firing[id]
        let alert: AlertmanagerAlert
        let endsAt: UInt64
        switch event.kind {
        case .firing, .repeat:
            alert = AlertmanagerAlert(event, startsAt: known?.startsAt ?? event.realtimeMicroseconds)
            endsAt = wallClock.now.microseconds + Self.endsAtLead
        case .resolved:
            // Its labels as it fired (the same alert to Alertmanager), ending now.
            alert = known ?? AlertmanagerAlert(event, startsAt: event.realtimeMicroseconds)
            endsAt = max(event.realtimeMicroseconds, alert.startsAt)
        }
        let outcome = await poster.post(url: url, json: AlertmanagerAlert.body([(alert, endsAt)]), timeout: timeout)
            .outcome
        if outcome == .delivered {
            if event.kind != .resolved, known == nil, firing.count >= limit, let oldest = oldestFiring {
                firing[oldest.identity] = nil
                log.log(
                    .warning,
                    "\(url): \(limit) alerts firing, the most a target keeps; dropped the oldest, \(oldest.rule) on \(oldest.host.isEmpty ? "?" : oldest.host) (\(oldest.sensor)), firing since \(RFC3339.format(microseconds: oldest.startsAt)): it is no longer re-sent"
                )
            }
            firing[id] = event.kind == .resolved ? nil : alert
            keep(firingAlerts)
        }
        return outcome
    }

    /// Creates a new silence in Alertmanager (`POST /api/v2/silences`), or expires the one
    /// made for an expired silence (`DELETE /api/v2/silence/ID`; one Alertmanager no longer
    /// knows, 404, is gone already). A silence that has ended, or was never made there, needs
    /// nothing.
    public func silence(_ silence: Silence) async -> DeliveryOutcome {
        if silence.expired {
            guard let theirs = silences[silence.id] else { return .delivered }
            let result = await poster.send(
                "DELETE", url: baseURL + "/api/v2/silence/" + theirs, json: "", timeout: timeout)
            if case .answered(404, _) = result {} else if result.outcome != .delivered { return result.outcome }
            silences[silence.id] = nil
            keepSilences(silences)
            return .delivered
        }
        guard silences[silence.id] == nil, silence.endsMicroseconds > wallClock.now.microseconds else {
            return .delivered
        }
        let result = await poster.post(
            url: baseURL + "/api/v2/silences", json: AlertmanagerSilence.body(silence), timeout: timeout)
        guard result.outcome == .delivered else { return result.outcome }
        guard case .answered(_, let body) = result, let theirs = AlertmanagerSilence.id(inAnswer: body) else {
            return .failed("Alertmanager's answer has no silenceID")
        }
        silences[silence.id] = theirs
        keepSilences(silences)
        return .delivered
    }

    /// Sends the firing alerts again every minute, until cancelled. A failed re-send is
    /// logged once until one works again; the next minute tries again.
    public func maintain() async {
        var failing = false
        while true {
            do { try await clock.sleep(for: Self.resendInterval) } catch { return }
            let alerts = firingAlerts
            guard !alerts.isEmpty else { continue }
            let endsAt = wallClock.now.microseconds + Self.endsAtLead
            let result = await poster.post(
                url: url, json: AlertmanagerAlert.body(alerts.map { ($0, endsAt) }), timeout: timeout)
            if Task.isCancelled { return }
            switch result.outcome {
            case .delivered:
                if failing { log.log(.notice, "\(CredentialedURL(url).shown): firing alerts are re-sent again") }
                failing = false
            case .retry(let why), .failed(let why):
                if !failing {
                    log.log(
                        .warning,
                        "\(CredentialedURL(url).shown): cannot re-send \(alerts.count) firing alerts (\(why)); trying every minute"
                    )
                }
                failing = true
            }
        }
    }
}
