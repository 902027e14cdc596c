public import SensorCore

/// One entry of `sources`, with relative paths already resolved against the config file.
public struct SourceConfiguration: Sendable, Hashable {
    /// The kind of source.
    public var kind: SourceKind
    /// This source's poll interval (the source's own, else the file's default).
    public var interval: Duration
    /// The shortest poll interval a configuration may ask for (SPEC §3): below it a poll
    /// loop would keep a core busy, which is never what a sensor needs.
    public static let minimumInterval: Duration = .milliseconds(10)
    /// The sysfs directory to read (defaults per kind), absolute.
    public var root: String
    /// Only sensor ids matching one of these globs (empty: all).
    public var include: [Glob]
    /// No sensor id matching one of these globs.
    public var exclude: [Glob]
    /// For `simulated`: the scenario file, absolute, and its loaded content.
    public var scenarioPath: String?
    /// For `simulated`: the loaded scenario of ``scenarioPath``.
    public var scenario: Scenario?
    /// The temperatures its readings may take (`plausible`, SPEC §16).
    public var plausible: PlausibleRange
    /// `wake: true`: read a chip even while its device is runtime-suspended, which resumes
    /// it (SPEC §20); by default a sleeping device is left asleep.
    public var wake: Bool
    /// For `ipmi`: the one BMC this source reads (SPEC §23).
    public var ipmi: IPMISourceSettings?

    /// A source of the given fields; paths must already be resolved.
    public init(
        kind: SourceKind, interval: Duration, root: String? = nil, include: [Glob] = [],
        exclude: [Glob] = [], scenarioPath: String? = nil, scenario: Scenario? = nil,
        plausible: PlausibleRange = .standard, wake: Bool = false, ipmi: IPMISourceSettings? = nil
    ) {
        self.ipmi = ipmi
        self.plausible = plausible
        self.wake = wake
        self.kind = kind
        self.interval = interval
        self.root = root ?? kind.defaultRoot
        self.include = include
        self.exclude = exclude
        self.scenarioPath = scenarioPath
        self.scenario = scenario
    }

    /// Whether a sensor id passes `include` and `exclude`.
    public func admits(_ id: SensorID) -> Bool {
        if !include.isEmpty, !include.contains(where: { $0.matches(id.rawValue) }) { return false }
        return !exclude.contains(where: { $0.matches(id.rawValue) })
    }
}

/// The kinds of source sensorwatch reads.
public enum SourceKind: String, Sendable, Hashable, CaseIterable {
    case thermal, hwmon, iio, simulated
    /// A BMC's sensors over IPMI (SPEC §23), in band or over the LAN.
    case ipmi

    /// Where the kernel puts this kind of sensor.
    public var defaultRoot: String {
        switch self {
        case .thermal: return "/sys/class/thermal"
        case .hwmon: return "/sys/class/hwmon"
        case .iio: return "/sys/bus/iio/devices"
        case .simulated, .ipmi: return ""
        }
    }

    /// The `SOURCE` part of the ids this kind produces.
    public var idPrefix: String {
        switch self {
        case .thermal: return "thermal"
        case .hwmon: return "hwmon"
        case .iio: return "iio"
        case .simulated: return "sim"
        case .ipmi: return "ipmi"
        }
    }
}
