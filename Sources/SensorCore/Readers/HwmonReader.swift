/// Reads the hwmon sensors of one sysfs root (SPEC §4).
public final class HwmonReader: SensorReader {
    public let source = "hwmon"
    private let configuration: SourceConfiguration

    public init(configuration: SourceConfiguration) {
        self.configuration = configuration
    }

    public func discover() -> [SensorInfo] { [] }

    public func poll(at time: Timestamp) -> [Sample] { [] }
}
