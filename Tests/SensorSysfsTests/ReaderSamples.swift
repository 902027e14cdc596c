@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSysfs

extension SensorReader {
    /// One poll read back as samples: instants in time order, each in list order (the list
    /// of the reader's last discovery, which the poll itself may have made).
    func samples(at time: Timestamp) -> [Sample] {
        let read = poll(at: time)
        let listed: [SensorInfo] =
            switch self {
            case let r as SysfsReader: r.listed
            default: discover()
            }
        return read.flatMap { $0.samples(of: listed) }
    }
}
