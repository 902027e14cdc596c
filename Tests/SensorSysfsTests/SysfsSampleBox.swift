import SensorCore
import SensorSysfs
import Synchronization

/// Hands a poll's samples from a background thread to the test.
final class SysfsSampleBox: Sendable {
    private let samples = Mutex<[Sample]?>(nil)
    func set(_ s: [Sample]) { samples.withLock { $0 = s } }
    func get() -> [Sample]? { samples.withLock { $0 } }
}
