import SensorRuntime
import SensorCore
/// One alert as Alertmanager's API v2 receives it (SPEC §17): labels `alertname`, `sensor`,
/// `severity`, `host`; annotations `summary`, `value`, `threshold`, and the rule's
/// `description` and `runbook_url` where it has them (SPEC §21); `startsAt` the firing time.
/// Also what `notify.json` keeps of a firing alert, so the minute's re-send survives a restart.
public struct AlertmanagerAlert: Hashable, Sendable {
    /// The rule (`alertname`).
    public var rule: String
    /// The sensor id.
    public var sensor: String
    /// The severity, empty when unknown.
    public var severity: String
    /// The host (`_HOSTNAME`).
    public var host: String
    /// The rule's summary, else the event's message (`summary`).
    public var summary: String
    /// The rule's description (`description`); nil when it has none, and in a `notify.json`
    /// written before annotations existed.
    public var description: String?
    /// The rule's runbook (`runbook_url`); nil when it has none.
    public var runbook: String?
    /// The sample, as the journal wrote it; empty for a stale alert.
    public var value: String
    /// The threshold, as the journal wrote it.
    public var threshold: String
    /// When it started firing, microseconds since the Unix epoch.
    public var startsAt: UInt64

    /// An alert of the given fields; `startsAt` is microseconds since the Unix epoch.
    public init(
        rule: String, sensor: String, severity: String, host: String, summary: String, value: String, threshold: String,
        startsAt: UInt64, description: String? = nil, runbook: String? = nil
    ) {
        self.description = description
        self.runbook = runbook
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.host = host
        self.summary = summary
        self.value = value
        self.threshold = threshold
        self.startsAt = startsAt
    }

    /// The alert of a `firing` or `repeat` event, starting at `startsAt` (a repeat keeps the
    /// firing's start when it is known).
    public init(_ e: NotifyEvent, startsAt: UInt64) {
        func number(_ v: Double?) -> String { v.map(NumberText.number) ?? "" }
        self.init(
            rule: e.rule, sensor: e.sensor, severity: e.severity?.rawValue ?? "", host: e.host,
            summary: e.annotations.summary ?? e.message, value: number(e.value), threshold: number(e.threshold),
            startsAt: startsAt, description: e.annotations.description, runbook: e.annotations.runbook)
    }

    /// What makes two alerts the same alert in Alertmanager: its labels but the severity,
    /// which a rule fixes.
    public var identity: Identity { Identity(rule: rule, sensor: sensor, host: host) }

    /// The identity of an alert.
    public struct Identity: Hashable, Sendable {
        /// The rule (`alertname`).
        public var rule: String
        /// The sensor id.
        public var sensor: String
        /// The host that logged it.
        public var host: String

        /// The identity of the given fields.
        public init(rule: String, sensor: String, host: String) {
            self.rule = rule
            self.sensor = sensor
            self.host = host
        }
    }

    /// The JSON object Alertmanager's `POST /api/v2/alerts` takes, ending at `endsAt`.
    public func json(endsAt: UInt64) -> String { JSONWriter.text(object(endsAt: endsAt)) }

    /// This alert's object in a POST's body; `severity`, `host`, `value` and `threshold`
    /// are left out when empty, `description` and `runbook_url` when the rule has none.
    private func object(endsAt: UInt64) -> JSONValue {
        func strings(
            _ pairs: [(String, String)], optional: [(String, String)], ifSet set: [(String, String?)] = []
        ) -> JSONValue {
            let present = set.compactMap { pair in pair.1.map { (pair.0, $0) } }
            return .object(
                JSONObject(
                    (pairs + optional.filter { !$0.1.isEmpty } + present).map {
                        JSONObject.Member(key: $0.0, value: .string($0.1))
                    }))
        }
        return .object(
            JSONObject([
                .init(
                    key: "labels",
                    value: strings(
                        [("alertname", rule), ("sensor", sensor)], optional: [("severity", severity), ("host", host)])),
                .init(
                    key: "annotations",
                    value: strings(
                        [("summary", summary)], optional: [("value", value), ("threshold", threshold)],
                        ifSet: [("description", description), ("runbook_url", runbook)])),
                .init(key: "startsAt", value: .string(RFC3339.format(microseconds: startsAt))),
                .init(key: "endsAt", value: .string(RFC3339.format(microseconds: endsAt))),
            ]))
    }

    /// The body of one POST: a JSON array of `alerts`, each with its end.
    public static func body(_ alerts: [(AlertmanagerAlert, endsAt: UInt64)]) -> String {
        JSONWriter.text(.array(alerts.map { $0.0.object(endsAt: $0.endsAt) }))
    }
}
