public import SensorConfig
public import SensorCore
public import SensorRuntime

/// Reads a sysfs source with the scan of its kind (SPEC §4): thermal zones
/// (`thermal:<type>`, label `type`, °C from millidegrees), hwmon temperatures and humidities
/// (`hwmon:<chip>/tempN`, `hwmon:<chip>/humidityN`), IIO temperature, humidity and pressure
/// channels (`iio:<name>/temp`, hPa from kPa).
///
/// Each attribute is opened once and re-read with `pread` at offset 0; a failed read
/// is a fault sample for that sensor only (errno, `empty`, `not a number`, out of range).
/// `discover()` rescans the root, picks up new sensors, drops vanished ones and closes
/// their files; `poll(at:)` discovers first if nobody has yet.
public final class SysfsReader: SensorReader {
    /// The id prefix of this reader's sensors (`thermal`, `hwmon`, `iio`).
    public let source: String
    /// What discovers and reads the files (tests read its last discovery).
    let core: SysfsReaderCore

    /// Reads `configuration.root` through the real system calls.
    public convenience init(configuration: SourceConfiguration) {
        self.init(configuration: configuration, io: PosixSysfsIO())
    }

    /// Reads `configuration.root` through `io` (tests inject errnos there).
    public init(configuration: SourceConfiguration, io: any SysfsIO) {
        source = configuration.kind.idPrefix
        let scan: @Sendable (SourceConfiguration, any SysfsIO, [SysfsChannel]) -> [SysfsChannel] =
            switch configuration.kind {
            case .thermal: ThermalZoneScanner.scan
            case .hwmon: HwmonScanner.scan
            case .iio: IIOScanner.scan
            // Not a sysfs source (SensorCLI gives it a SimulatedReader or a BMC
            // reader): nothing to find.
            case .simulated, .ipmi: { _, _, _ in [] }
            }
        core = SysfsReaderCore(configuration: configuration, io: io, scan: scan)
    }

    /// Rescans the root (new and vanished sensors); returns the sensors in id order.
    public func discover() -> [SensorInfo] { core.discover() }

    /// Reads every sensor once: one reading each, in the order of the last `discover()`,
    /// a fault with its reason where the read fails.
    public func poll(at time: Timestamp) -> [SensorValues] { [core.poll(at: time)] }

    /// Gives up a discovery or poll stuck in one file for a second (see ``SensorReader``).
    public func isolateBlockedRead(now: Timestamp) -> Bool { core.isolateBlockedCall(now: now) }

    /// The chips or devices the last discovery left out because their name blocked.
    public var leftOut: [String] { core.leftOut }

    /// Whether the root lists other entries than at the last discovery (SPEC §20).
    public func devicesChanged() -> Bool { core.devicesChanged() }

    /// The sensors of the last discovery that are thermal zones the kernel exports through
    /// hwmon too (`CONFIG_THERMAL_HWMON`), each with the zone's `thermal:` id: one sensor
    /// under two ids when both sources are configured (none for other kinds).
    public func thermalMirrors() -> [SensorID: SensorID] { core.mirrors() }
}
