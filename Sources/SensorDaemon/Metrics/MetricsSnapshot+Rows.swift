import SensorRuntime
public import SensorCore

extension MetricsSnapshot {
    /// One sensor as a row, for building and reading snapshots by hand (tests, tools).
    public struct Sensor: Sendable, Equatable {
        /// Id, label and quantity (which fixes the unit of `value`).
        public var info: SensorInfo
        /// Whether the latest read succeeded.
        public var up: Bool
        /// Nil if no read has succeeded yet.
        public var value: Double?
        /// Unix seconds of `value`; nil with it.
        public var lastReading: Double?

        /// A row of the given fields.
        public init(info: SensorInfo, up: Bool, value: Double?, lastReading: Double?) {
            self.info = info
            self.up = up
            self.value = value
            self.lastReading = lastReading
        }
    }

    /// One alert as a row.
    public struct Alert: Sendable, Equatable {
        /// The rule's name.
        public var rule: String
        /// The sensor's id.
        public var sensor: SensorID
        /// The rule's severity.
        public var severity: Severity
        /// Whether it is firing now (`pending` is not firing).
        public var firing: Bool

        /// A row of the given fields.
        public init(rule: String, sensor: SensorID, severity: Severity, firing: Bool) {
            self.rule = rule
            self.sensor = sensor
            self.severity = severity
            self.firing = firing
        }
    }

    /// A snapshot of rows: one sensor group, and one rule per distinct (name, severity).
    public init(version: String, startTime: Double, sensors: [Sensor], alerts: [Alert] = [], events: [EventCount] = [])
    {
        let group = SensorGroup(
            sensors: sensors.map(\.info), attempted: sensors.map { _ in true }, up: sensors.map(\.up),
            value: sensors.map { $0.value ?? .nan }, lastReading: sensors.map { $0.lastReading ?? .nan })
        var table = AlertTable()
        for a in alerts {
            var r = table.rules.firstIndex { $0.name == a.rule && $0.severity == a.severity }
            if r == nil {
                table.rules.append(
                    Rule(name: a.rule, selector: SensorSelector(), condition: .stale(.seconds(1)), severity: a.severity)
                )
                r = table.rules.count - 1
            }
            table.sensors.append(SensorInfo(id: a.sensor, quantity: .temperature))
            table.entries.append(.init(rule: r!, sensor: table.sensors.count - 1, firing: a.firing))
        }
        self.init(
            version: version, startTime: startTime, groups: sensors.isEmpty ? [] : [group], alerts: table,
            events: events)
    }

    /// The tried sensors as rows, sorted by id.
    public var sensorRows: [Sensor] {
        var rows: [Sensor] = []
        for g in groups {
            for i in g.sensors.indices where g.attempted[i] {
                rows.append(
                    Sensor(
                        info: g.sensors[i], up: g.up[i], value: g.value[i].isNaN ? nil : g.value[i],
                        lastReading: g.lastReading[i].isNaN ? nil : g.lastReading[i]))
            }
        }
        return rows.sorted { $0.info.id < $1.info.id }
    }

    /// The alerts as rows, in table order.
    public var alertRows: [Alert] {
        alerts.entries.map {
            let rule = alerts.rules[$0.rule]
            return Alert(
                rule: rule.name, sensor: alerts.sensors[$0.sensor].id, severity: rule.severity, firing: $0.firing)
        }
    }
}
