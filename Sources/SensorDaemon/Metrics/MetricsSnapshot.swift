import SensorRuntime
public import SensorCore

/// What the daemon knows at one moment, as the Prometheus textfile shows it (SPEC §12).
///
/// The seam between the daemon's state and the metrics file: the model (``SensorData``, the
/// ``RuleEngine``, the alert ledger's counters) fills one in, and
/// ``PrometheusRenderer`` renders it. A plain value, so it can be built in a test and
/// rendered anywhere. Order does not matter: the rendering sorts.
///
/// Sensors and alerts are kept as parallel arrays that share the keeper's storage where
/// they can (sensor lists, values): taking a snapshot of a thousand sensors copies no
/// string and touches no reference count per sensor, which at one file a second is a
/// visible share of the daemon's CPU.
public struct MetricsSnapshot: Sendable, Equatable {
    /// Sensors, one group per source, as parallel arrays.
    public struct SensorGroup: Sendable, Equatable {
        /// Id, label and quantity (which fixes the unit of `value`).
        public var sensors: [SensorInfo]
        /// Whether a read of the sensor has been tried yet; untried sensors are not shown.
        public var attempted: [Bool]
        /// Whether the latest read succeeded.
        public var up: [Bool]
        /// The latest successful reading in the quantity's unit (°C, %RH, hPa); NaN if no
        /// read has succeeded yet.
        public var value: [Double]
        /// Unix time (seconds) of that reading; NaN with `value`.
        public var lastReading: [Double]
        /// The positions of sensors whose device sleeps (SPEC §20); empty when none does.
        public var asleep: Set<Int>

        /// A group of the given arrays, all of the same length; by default no sensor sleeps.
        public init(
            sensors: [SensorInfo], attempted: [Bool], up: [Bool], value: [Double], lastReading: [Double],
            asleep: Set<Int> = []
        ) {
            precondition(
                [attempted.count, up.count, value.count, lastReading.count].allSatisfy { $0 == sensors.count },
                "a group's arrays must align with its sensors")
            self.asleep = asleep
            self.sensors = sensors
            self.attempted = attempted
            self.up = up
            self.value = value
            self.lastReading = lastReading
        }
    }

    /// Every (rule, sensor) alert that exists (the rule selects the sensor).
    public struct AlertTable: Sendable, Equatable {
        /// One alert: indices into `rules` and `sensors`.
        public struct Entry: Sendable, Equatable {
            /// The rule's index in `rules`.
            public var rule: Int
            /// The sensor's index in `sensors`.
            public var sensor: Int
            /// Whether it is firing now (`pending` is not firing).
            public var firing: Bool

            /// An entry of the given fields.
            public init(rule: Int, sensor: Int, firing: Bool) {
                self.rule = rule
                self.sensor = sensor
                self.firing = firing
            }
        }

        /// The rules the entries point into.
        public var rules: [Rule]
        /// The sensors the entries point into.
        public var sensors: [SensorInfo]
        /// The alerts, as indices into `rules` and `sensors`.
        public var entries: [Entry]

        /// A table of the given fields; by default empty.
        public init(rules: [Rule] = [], sensors: [SensorInfo] = [], entries: [Entry] = []) {
            self.rules = rules
            self.sensors = sensors
            self.entries = entries
        }
    }

    /// How many events of one kind one rule has sent since the daemon started.
    public struct EventCount: Sendable, Equatable {
        /// The rule's name.
        public var rule: String
        /// The kind of event counted (`firing`, `resolved`, `repeat`).
        public var event: EventKind
        /// How many were sent.
        public var count: UInt64

        /// A count of the given fields.
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
    /// Every sensor, one group per source.
    public var groups: [SensorGroup]
    /// Every (rule, sensor) alert that exists, and whether it fires.
    public var alerts: AlertTable
    /// Every configured rule's counts of every event kind, zeros included (a counter that
    /// appears only at its first event hides that event from `increase()`).
    public var events: [EventCount]

    /// A snapshot of the given fields; by default with no sensors, alerts or counts.
    public init(
        version: String, startTime: Double, groups: [SensorGroup] = [], alerts: AlertTable = AlertTable(),
        events: [EventCount] = []
    ) {
        self.version = version
        self.startTime = startTime
        self.groups = groups
        self.alerts = alerts
        self.events = events
    }
}
