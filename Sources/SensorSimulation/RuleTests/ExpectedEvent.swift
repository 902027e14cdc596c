public import SensorCore

/// One event a rule test expects (SPEC §18): the four keys it must list, and those it may.
///
/// An optional key left out is not compared; `value: null` (a stale alert that fires)
/// expects no value, so the optional keys are doubly optional.
public struct ExpectedEvent: Sendable, Hashable {
    /// Seconds since the scenario's start.
    public var time: Double
    /// `firing`, `resolved` or `repeat`.
    public var kind: EventKind
    /// The rule's name.
    public var rule: String
    /// The sensor id as events give it (`sim:cpu`).
    public var sensor: String
    /// The severity; nil: not compared.
    public var severity: Severity?
    /// The value; nil: not compared, `.some(nil)`: the event must have none.
    public var value: Double??
    /// The threshold; nil: not compared.
    public var threshold: Double?
    /// A `predict` event's predicted value; nil: not compared, `.some(nil)`: the event must have none.
    public var predicted: Double??
    /// The hardware limit an event names (`crit`, SPEC §16; `alarm` for an `alarm: true`
    /// rule's plain alarm file, §16b); `null` expects none.
    public var limit: String??
    /// The annotations listed (SPEC §21), by key (`summary`, …): a text, or nil for
    /// `null`, which expects the event to have none.
    public var annotations: [String: String?]

    /// An expected event of the given fields; every optional key defaults to not compared.
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
