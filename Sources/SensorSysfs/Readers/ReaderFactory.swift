public import SensorCore

/// Builds the reader for a configured source.
public enum ReaderFactory {
    /// The reader for `source`; simulated sources loop only when `loop` is set (`run`).
    public static func makeReader(for source: SourceConfiguration, loop: Bool) -> any SensorReader {
        switch source.kind {
        case .thermal, .hwmon, .iio: return SysfsReader(configuration: source)
        case .simulated: return SimulatedReader(configuration: source, loop: loop)
        // A BMC is read by SensorIPMI, which SensorCLI's SourceReaders chooses before asking
        // here; a sysfs reader of nothing keeps this module free of IPMI.
        case .ipmi: return SysfsReader(configuration: source)
        }
    }
}
