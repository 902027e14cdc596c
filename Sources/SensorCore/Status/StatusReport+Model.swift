package import SensorRuntime

extension StatusReport {
    /// The report of the daemon's model now: every sensor from ``SensorData``, every pending
    /// or firing alert from the rule engine.
    ///
    /// - Parameters:
    ///   - started: Unix time (seconds) of the run's time zero; turns run times into Unix times.
    ///   - firingSince: when a firing alert fired, as the alert ledger keeps it (a restart
    ///     keeps it too); nil falls back to the engine's run time.
    @DaemonActor
    package init(
        version: String, pid: Int, started: Double, updated: Double, data: SensorData, engine: RuleEngine,
        firingSince: (AlertKey) -> Double?
    ) {
        var sensors: [StatusSensor] = []
        var values: [SensorID: Double] = [:]
        let faulty = data.faulty
        for source in data.readings {
            for (i, info) in source.list.sensors.enumerated() {
                let read = source.goodValue(at: i)
                let asleep = source.isAsleep(at: i)
                let attempted = asleep || source.wasAttempted(at: i)
                let fault = faulty[info.id]?.reason
                // A discrete sensor is not a value (SPEC §23): its states' words stand for it.
                let discrete = info.quantity == .state
                let value = discrete ? nil : read
                values[info.id] = value
                sensors.append(
                    StatusSensor(
                        id: info.id.rawValue, label: info.label, quantity: info.quantity.rawValue, unit: info.unit,
                        value: value,
                        time: read == nil ? nil : started + source.goodTime(at: i).seconds,
                        ok: attempted && fault == nil,
                        error: fault ?? (attempted ? nil : "not read yet"), limits: StatusLimits(info.limits),
                        asleep: asleep,
                        state: discrete && fault == nil ? source.latest.states(at: i) : nil))
            }
        }
        sensors.sort { $0.id < $1.id }
        var alerts = Self.activeAlerts(engine: engine, started: started, firingSince: firingSince)
        for i in alerts.indices { alerts[i].value = values[SensorID(alerts[i].sensor)] }
        self.init(
            version: version, pid: pid, started: started, updated: updated, sensors: sensors, alerts: alerts)
    }

    /// Every pending or firing alert of `engine`, in rule order, then by sensor id, without
    /// its value (the caller knows the sensors'): the status file's, and the live stream's.
    @DaemonActor
    package static func activeAlerts(
        engine: RuleEngine, started: Double, firingSince: (AlertKey) -> Double?
    ) -> [StatusAlert] {
        var alerts: [(rule: Int, alert: StatusAlert)] = []
        let rules = engine.rules, infos = engine.sensors
        engine.forEachActiveAlert { r, e, phase, threshold in
            let rule = rules[r], sensor = infos[e]
            let state: StatusAlert.State, since: Double
            switch phase {
            case .firing(let t, _, _):
                state = .firing
                since = firingSince(AlertKey(rule: rule.name, sensor: sensor.id)) ?? started + t.seconds
            case .pending(let t):
                state = .pending
                since = started + t.seconds
            case .ok: return
            }
            alerts.append(
                (
                    r,
                    StatusAlert(
                        rule: rule.name, sensor: sensor.id.rawValue, severity: rule.severity, state: state,
                        since: since,
                        value: nil, threshold: threshold.value, condition: threshold.condition,
                        limit: threshold.limit, within: threshold.within, unit: sensor.unit)
                ))
        }
        alerts.sort { $0.rule != $1.rule ? $0.rule < $1.rule : $0.alert.sensor < $1.alert.sensor }
        return alerts.map(\.alert)
    }

    /// What a change "of a sensor's health or an alert's state" (SPEC §19) is measured by:
    /// which sensors are listed and failing, and which alerts are in which state.
    package var shape: [String] {
        sensors.map { $0.id + ($0.asleep ? " asleep" : $0.ok ? " ok" : " failing: " + ($0.error ?? "")) }
            + alerts.map { $0.rule + " " + $0.sensor + " " + $0.state.rawValue }
    }
}
