import Glibc
import SensorConfig
import SensorCore
import SensorIPMI
import SensorSimulation
import SensorSysfs

/// The reader of each kind of configured source: a BMC's from SensorIPMI (through
/// libfreeipmi, loaded at run time), sysfs sources' from SensorSysfs, scenarios' from
/// SensorSimulation.
struct SourceReaders: Sendable {
    /// The state directory, where BMCs' SDR caches are kept (SPEC §23); looked at (and made)
    /// only when a BMC is read, so other sources never touch it.
    var stateDirectory: String
    /// Where a BMC's new System Event Log records go; nil: the log is not read (`sensors`,
    /// `record`).
    var eventLog: (@Sendable (IPMISourceSettings) -> IPMIEventLog?)?
    /// Where BMCs' discrete states go for the alerts' messages (`run`); nil: nowhere.
    var board: IPMIStateBoard?

    /// The reader for `source`; simulated sources loop only when `loop` is set (`run`).
    func make(_ source: SourceConfiguration, loop: Bool) -> any SensorReader {
        switch source.kind {
        case .thermal, .hwmon, .iio:
            return SysfsReader(configuration: source)
        case .simulated:
            return SimulatedReader(configuration: source, loop: loop)
        case .ipmi:
            return IPMIReader(
                configuration: source, transport: FreeIPMITransport(),
                cacheDirectory: Self.cacheDirectory(state: stateDirectory),
                eventLog: source.ipmi.flatMap { eventLog?($0) }, board: board)
        }
    }

    /// Readers without an event log, caching SDRs in the state directory.
    static var plain: SourceReaders {
        SourceReaders(stateDirectory: StateStore.directoryFromEnvironment(), eventLog: nil)
    }

    /// Where SDR caches go: the state directory (`$STATE_DIRECTORY`, the unit's), made if
    /// missing; for a user who may not write there (`sensors` run by hand), a directory of
    /// their own under /tmp (mode 0700), so a BMC is still read.
    static func cacheDirectory(state: String) -> String {
        _ = mkdir(state, 0o755)
        if access(state, W_OK) == 0 { return state }
        let own = "/tmp/sensorwatch-sdr-\(getuid())"
        _ = mkdir(own, 0o700)
        return own
    }
}
