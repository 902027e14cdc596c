/// Reads the iio sensors of one sysfs root (SPEC §4).
public final class IIOReader: SensorReader {
    public let source = "iio"
    private let configuration: SourceConfiguration

    public init(configuration: SourceConfiguration) {
        self.configuration = configuration
    }

    public func discover() -> [SensorInfo] { [] }

    public func poll(at time: Timestamp) -> [Sample] { [] }
}
