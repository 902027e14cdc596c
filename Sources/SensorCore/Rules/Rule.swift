/// A validated alert rule: which sensors, one condition, and the timing around it.
public struct Rule: Hashable, Sendable {
    /// Unique name, used in events and `ALERT_RULE`.
    public var name: String
    /// The sensors it applies to.
    public var selector: SensorSelector
    /// The condition.
    public var condition: Condition
    /// How long the condition must hold before the alert fires (`for`, default 0).
    public var holdFor: Duration
    /// How long the condition must stay false before a firing alert resolves (default 0).
    public var clearFor: Duration
    /// Re-send a firing alert every this long, if set.
    public var repeatEvery: Duration?
    /// Severity (default warning).
    public var severity: Severity
    /// The limit the threshold is named by (SPEC §16), if it is.
    public var limit: RuleLimit?
    /// In a rule resolved for one sensor (``resolved(for:)``): the limit its threshold came
    /// from, nil when it is `otherwise`'s (or the rule names no limit).
    public var appliedLimit: String?
    /// What the rule's events tell the person who is paged (SPEC §21).
    public var annotations: RuleAnnotations

    /// A rule of the given fields, taken as they are: the configuration decoder validates them first.
    public init(
        name: String, selector: SensorSelector, condition: Condition,
        holdFor: Duration = .zero, clearFor: Duration = .zero,
        repeatEvery: Duration? = nil, severity: Severity = .warning, limit: RuleLimit? = nil,
        annotations: RuleAnnotations = RuleAnnotations()
    ) {
        self.annotations = annotations
        self.limit = limit
        self.name = name
        self.selector = selector
        self.condition = condition
        self.holdFor = holdFor
        self.clearFor = clearFor
        self.repeatEvery = repeatEvery
        self.severity = severity
    }

    /// The quantities `rules` can select: what a loop must observe so that no rule misses a
    /// sample (every quantity when a rule names none).
    public static func quantities(neededBy rules: [Rule]) -> Set<Quantity> {
        var out: Set<Quantity> = []
        for rule in rules {
            guard let quantity = rule.selector.quantity else { return Set(Quantity.allCases) }
            out.insert(quantity)
        }
        return out
    }
}
