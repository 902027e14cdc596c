/// One event a rule test expects (SPEC §18): the four keys it must list, and those it may.
///
/// An optional key left out is not compared; `value: null` (a stale alert that fires)
/// expects no value, so the optional keys are doubly optional.
public import SensorCore

public struct ExpectedEvent: Sendable, Hashable {
    /// Seconds since the scenario's start.
    public var time: Double
    public var kind: EventKind
    public var rule: String
    /// The sensor id as events give it (`sim:cpu`).
    public var sensor: String
    public var severity: Severity?
    public var value: Double??
    public var threshold: Double?
    public var predicted: Double??
    /// The hardware limit an event names (`crit`, SPEC §16; `alarm` for an `alarm: true`
    /// rule's plain alarm file, §16b); `null` expects none.
    public var limit: String??
    /// The annotations listed (SPEC §21), by key (`summary`, …): a text, or nil for
    /// `null`, which expects the event to have none.
    public var annotations: [String: String?]

    public init(
        time: Double, kind: EventKind, rule: String, sensor: String, severity: Severity? = nil,
        value: Double?? = nil, threshold: Double? = nil, predicted: Double?? = nil, limit: String?? = nil,
        annotations: [String: String?] = [:]
    ) {
        self.annotations = annotations
        self.time = time
        self.kind = kind
        self.rule = rule
        self.sensor = sensor
        self.severity = severity
        self.value = value
        self.threshold = threshold
        self.predicted = predicted
        self.limit = limit
    }
}
