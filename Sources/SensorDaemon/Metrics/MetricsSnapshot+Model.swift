import SensorCore
import SensorRuntime
extension MetricsSnapshot {
    /// The snapshot of the daemon's model: sensors from ``SensorData``'s readings, alerts
    /// from the rule engine, counters from what the alert ledger counted.
    ///
    /// - Parameters:
    ///   - startTime: Unix time (seconds) of the run's time zero, which turns the readings'
    ///     run-relative times into Unix times.
    ///   - readings: ``SensorData/readings``, one group per source.
    ///   - eventCount: how many events of a kind a rule (by name) has sent since start.
    init(
        version: String, startTime: Double, readings: [SourceReadings], engine: RuleEngine,
        eventCount: (String, EventKind) -> UInt64
    ) {
        self.init(version: version, startTime: startTime)
        groups.reserveCapacity(readings.count)
        for source in readings where source.list.count > 0 {
            let n = source.list.count
            var attempted = [Bool](repeating: false, count: n)
            var up = attempted
            var lastReading = [Double](repeating: .nan, count: n)
            let values = source.goodValues
            let asleep = source.latest.asleep
            for i in 0..<n {
                // A sleeping sensor is shown (up: no read failed; `sensor_asleep` says why).
                let sleeps = !asleep.isEmpty && asleep.contains(i)
                attempted[i] = sleeps || source.wasAttempted(at: i)
                up[i] = sleeps || source.isUp(at: i)
                if !values[i].isNaN { lastReading[i] = startTime + source.goodTime(at: i).seconds }
            }
            groups.append(
                SensorGroup(
                    sensors: source.list.sensors, attempted: attempted, up: up, value: values, lastReading: lastReading,
                    asleep: asleep))
        }
        alerts.rules = engine.rules
        alerts.sensors = engine.sensors
        engine.forEachAlert { r, e, firing in alerts.entries.append(.init(rule: r, sensor: e, firing: firing)) }
        for rule in engine.rules {
            for kind in [EventKind.firing, .resolved, .repeat] {
                events.append(.init(rule: rule.name, event: kind, count: eventCount(rule.name, kind)))
            }
        }
    }
}
