extension Rule {
    /// This rule as it applies to `sensor`: a limit rule gets the sensor's threshold and clear
    /// point (SPEC §16); nil when it names a limit the sensor lacks and has no `otherwise`
    /// (the rule does not select that sensor). Other rules are returned as they are.
    public func resolved(for sensor: SensorInfo) -> Rule? {
        guard let limit else { return self }
        var rule = self
        switch condition {
        case .above:
            guard let r = limit.resolve(sensor.limits, above: true) else { return nil }
            rule.condition = .above(r.threshold, hysteresis: r.hysteresis)
            rule.appliedLimit = r.limit
        case .below:
            guard let r = limit.resolve(sensor.limits, above: false) else { return nil }
            rule.condition = .below(r.threshold, hysteresis: r.hysteresis)
            rule.appliedLimit = r.limit
        case .predict(var p):
            guard let r = limit.resolve(sensor.limits, above: p.direction == .above) else { return nil }
            p.threshold = r.threshold
            p.hysteresis = r.hysteresis
            rule.condition = .predict(p)
            rule.appliedLimit = r.limit
        case .rise, .fall, .stale, .alarm:
            return self
        }
        return rule
    }
}

extension Rule {
    /// The threshold this rule (resolved for its sensor by ``resolved(for:)``) uses, as its
    /// events, the status file and `history` report it; for an `alarm` rule, with the alarm
    /// `state` saw (`crit`, or `alarm` for the plain file).
    public func threshold(seen state: AlertState) -> AlertThreshold {
        let limit = condition == .alarm ? state.alarmsSeen.primary : appliedLimit
        return AlertThreshold(condition, limit: limit)
    }
}
