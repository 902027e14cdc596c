/// What the daemon knows at one moment, as the Prometheus textfile shows it (SPEC §12).
///
/// The seam between the daemon's state and the metrics file: whatever keeps the state
/// (today ``MetricsRecorder`` and the ``RuleEngine``) fills one in, and
/// ``PrometheusExposition`` renders it. A plain value, so it can be built in a test and
/// rendered anywhere. Order does not matter: the rendering sorts.
public struct MetricsSnapshot: Sendable, Equatable {
    /// One sensor the daemon has tried to read.
    public struct Sensor: Sendable, Equatable {
        /// Id, label and quantity (which fixes the unit of `value`).
        public var info: SensorInfo
        /// Whether the latest read succeeded.
        public var up: Bool
        /// The latest successful reading in the quantity's unit (°C, %RH, hPa); nil if no
        /// read has succeeded yet.
        public var value: Double?
        /// Unix time (seconds) of that reading; nil with `value`.
        public var lastReading: Double?

        public init(info: SensorInfo, up: Bool, value: Double?, lastReading: Double?) {
            self.info = info
            self.up = up
            self.value = value
            self.lastReading = lastReading
        }
    }

    /// One (rule, sensor) alert that exists: the rule selects the sensor.
    public struct Alert: Sendable, Equatable {
        public var rule: String
        public var sensor: SensorID
        public var severity: Severity
        /// Whether it is firing now (`pending` is not firing).
        public var firing: Bool

        public init(rule: String, sensor: SensorID, severity: Severity, firing: Bool) {
            self.rule = rule
            self.sensor = sensor
            self.severity = severity
            self.firing = firing
        }
    }

    /// How many events of one kind one rule has sent since the daemon started.
    public struct EventCount: Sendable, Equatable {
        public var rule: String
        public var event: EventKind
        public var count: UInt64

        public init(rule: String, event: EventKind, count: UInt64) {
            self.rule = rule
            self.event = event
            self.count = count
        }
    }

    /// The `--version` of the binary.
    public var version: String
    /// Unix time (seconds) the daemon started.
    public var startTime: Double
    public var sensors: [Sensor]
    public var alerts: [Alert]
    /// Every configured rule's counts of every event kind, zeros included (a counter that
    /// appears only at its first event hides that event from `increase()`).
    public var events: [EventCount]

    public init(
        version: String, startTime: Double, sensors: [Sensor] = [], alerts: [Alert] = [], events: [EventCount] = []
    ) {
        self.version = version
        self.startTime = startTime
        self.sensors = sensors
        self.alerts = alerts
        self.events = events
    }
}
