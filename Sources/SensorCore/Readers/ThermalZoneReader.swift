/// Reads the thermal sensors of one sysfs root (SPEC §4).
public final class ThermalZoneReader: SensorReader {
    public let source = "thermal"
    private let configuration: SourceConfiguration

    public init(configuration: SourceConfiguration) {
        self.configuration = configuration
    }

    public func discover() -> [SensorInfo] { [] }

    public func poll(at time: Timestamp) -> [Sample] { [] }
}
