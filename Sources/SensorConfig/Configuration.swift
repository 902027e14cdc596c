public import SensorCore

/// A loaded, validated configuration file (SPEC §3).
public struct Configuration: Sendable, Hashable {
    /// The file it was read from (absolute or as given); errors and reloads refer to it.
    public var path: String
    /// Default poll interval of every source.
    public var interval: Duration
    /// Sources in file order.
    public var sources: [SourceConfiguration]
    /// Rules in file order; the order is the tie order of events.
    public var rules: [Rule]
    /// Derived sensors (SPEC §11) in file order.
    public var derived: [DerivedSensorConfiguration]
    /// The Prometheus textfile to keep written, if any (SPEC §12).
    public var metrics: MetricsConfiguration?
    /// Where `run` keeps the status file (SPEC §19), absolute; nil: `status.json` in the runtime directory (``RuntimeDirectory``).
    public var statusFile: String?
    /// Where `run` serves the live stream (SPEC §22).
    public var liveSocket: LiveSocketSetting = .runtimeDirectory
    /// Where `sensorwatch notify` delivers alert events (SPEC §17); `run` ignores it.
    public var notify: [NotifyTarget]
    /// Whose journal entries `notify` and `history` take as the daemon's (SPEC §17).
    public var trust: JournalTrust
    /// Where `sensorwatch mqtt` publishes (SPEC §24); `run` ignores it.
    public var mqtt: MQTTConfiguration? = nil

    /// A configuration of the given fields, taken as they are: ``ConfigLoader`` validates a file's.
    public init(
        path: String, interval: Duration = .seconds(1), sources: [SourceConfiguration], rules: [Rule],
        derived: [DerivedSensorConfiguration] = [], metrics: MetricsConfiguration? = nil, statusFile: String? = nil,
        notify: [NotifyTarget] = [], trust: JournalTrust = .daemon
    ) {
        self.trust = trust
        self.statusFile = statusFile
        self.path = path
        self.interval = interval
        self.sources = sources
        self.rules = rules
        self.derived = derived
        self.metrics = metrics
        self.notify = notify
    }
}
