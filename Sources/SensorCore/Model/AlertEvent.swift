public import SensorRuntime

/// One alert transition of one (rule, sensor) pair, as every sink receives it.
public struct AlertEvent: Hashable, Sendable {
    /// When it happened, in run time.
    public var time: Timestamp
    /// `firing`, `resolved` or `repeat`.
    public var kind: EventKind
    /// The rule's name.
    public var rule: String
    /// The rule's position in the configuration; events at one instant sort by it.
    public var ruleIndex: Int
    /// The sensor the alert is about.
    public var sensor: SensorInfo
    /// The rule's severity (also on `resolved`).
    public var severity: Severity
    /// The sample that caused the event; nil for a stale alert that fires.
    public var value: Double?
    /// The rule's `above`/`below`/`by`, or the `stale` duration in seconds.
    public var threshold: Double
    /// Which kind of condition the rule has; shapes the message (`above 80 °C`).
    public var condition: ConditionKind
    /// A predict rule's parameters (direction, `within`, …); nil for every other rule.
    public var predict: PredictCondition?
    /// A predict rule's prediction at the sample that caused the event: the fitted line's
    /// value at `time + within`; nil where the window held no line, and for other rules.
    public var predicted: Double?
    /// Whether the rule names a limit (SPEC §16): only then do events say which (`limit`).
    public var isLimitRule: Bool
    /// The limit the threshold came from (`crit`); nil for `otherwise` and other rules.
    public var limit: String?
    /// The window of a `rise`/`fall` rule and a prediction's `within`, in seconds
    /// (`ALERT_WITHIN`); nil for other rules.
    public var within: Double?
    /// Whether a limit rule's condition holds because the chip latched that limit's alarm
    /// while the sample itself is not past it (SPEC §16b): `(hardware alarm)`, `ALERT_ALARM=1`.
    public var hardwareAlarm = false
    /// Whether a `resolved` came because its sensor's device went (SPEC §20): no value,
    /// `reason: "sensor gone"` in JSON, `ALERT_REASON=gone`.
    public var sensorGone = false
    /// The rule's annotations (SPEC §21), carried unchanged into every sink.
    public var annotations: RuleAnnotations
    /// What the hardware says of an alarm it raised, when it says more than the alarm's
    /// name: a BMC's discrete sensor's warning or critical states (`Power Supply Failure
    /// detected`, SPEC §23). The message ends with it; nil for every other event.
    public var detail: String?

    /// An event of the given fields; `within` defaults to the prediction's horizon in seconds, if there is one.
    public init(
        time: Timestamp, kind: EventKind, rule: String, ruleIndex: Int, sensor: SensorInfo,
        severity: Severity, value: Double?, threshold: Double, condition: ConditionKind,
        predict: PredictCondition? = nil, predicted: Double? = nil, isLimitRule: Bool = false, limit: String? = nil,
        within: Double? = nil, annotations: RuleAnnotations = RuleAnnotations()
    ) {
        self.within = within ?? predict?.within.seconds
        self.annotations = annotations
        self.isLimitRule = isLimitRule
        self.limit = limit
        self.time = time
        self.kind = kind
        self.rule = rule
        self.ruleIndex = ruleIndex
        self.sensor = sensor
        self.severity = severity
        self.value = value
        self.threshold = threshold
        self.condition = condition
        self.predict = predict
        self.predicted = predicted
    }

    /// The threshold this alert used, as ``AlertThreshold/text(unit:)`` writes it for people.
    public var usedThreshold: AlertThreshold {
        AlertThreshold(condition: condition, value: threshold, limit: limit, within: within)
    }

    /// The level of this event: the severity's for firing/repeat, notice for resolved.
    public var level: LogLevel { kind == .resolved ? .notice : severity.level }

    /// The syslog priority of this event, its ``level``'s.
    public var priority: Int { level.priority }

    /// The tie order of SPEC §6: time, then config rule order, then sensor id.
    public static func inOrder(_ a: AlertEvent, _ b: AlertEvent) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.ruleIndex != b.ruleIndex { return a.ruleIndex < b.ruleIndex }
        return a.sensor.id < b.sensor.id
    }

    /// The one-line message, e.g.
    /// `cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C`, or for a
    /// predict rule `cpu-trend firing: sim:cpu (CPU) 78 °C, heading above 90 °C within 10m (93.2 °C)`.
    /// Always one line: the rule's name, the sensor's id, label and unit come from outside
    /// and are shown with ``DisplayText``'s escapes, in the journal's MESSAGE too.
    public var message: String {
        let e = self
        var s = "\(e.rule) \(e.kind.rawValue): \(e.sensor.id.rawValue)"
        if !e.sensor.label.isEmpty { s += " (\(e.sensor.label))" }
        let unit = e.sensor.unit
        // A discrete sensor's value is its state bits (SPEC §23): no number for people.
        let value = e.sensor.quantity == .state ? nil : e.value.map { "\(NumberText.display($0)) \(unit)" }
        // The threshold reads as status, history and notify show it (one function for all).
        let threshold = e.usedThreshold.text(unit: unit)
        let what: String
        switch e.condition {
        case .above: what = "above " + threshold
        case .below: what = "below " + threshold
        case .rise: what = "rose by at least " + threshold
        case .fall: what = "fell by at least " + threshold
        case .stale: what = "no reading for " + threshold
        case .alarm:
            what =
                "in hardware alarm" + (e.limit.map { _ in " (\(threshold))" } ?? "")
                + (e.detail.map { ": " + $0 } ?? "")
        case .predict: what = "heading \(e.predict?.direction.rawValue ?? "past") " + threshold
        }
        switch (e.kind, e.condition) {
        case (.resolved, _) where e.sensorGone:
            s += " sensor gone"
        case (.resolved, .stale):
            s += " " + (value.map { "\($0), reading again" } ?? "reading again")
        case (_, .predict):
            // Where it is heading, and the line's value there when it had one.
            let lead = e.kind == .resolved ? "no longer " + what : what
            s += " " + (value.map { "\($0), \(lead)" } ?? lead)
            if let p = e.predicted { s += " (\(NumberText.display(p)) \(unit))" }
        case (.resolved, _):
            s += " " + (value.map { "\($0), no longer \(what)" } ?? "no longer \(what)")
        default:
            s += " " + (value.map { "\($0) \(what)" } ?? what)
        }
        if e.hardwareAlarm { s += " (hardware alarm)" }
        return DisplayText.escaped(s)
    }
}

/// The kind of condition a rule has, without its parameters.
public enum ConditionKind: String, Sendable, Hashable, CaseIterable {
    case above, below, rise, fall, stale, predict, alarm
}
