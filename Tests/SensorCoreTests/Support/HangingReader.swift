import Dispatch
import Synchronization
@testable import SensorCore

/// A reader whose polls hang (like a stuck driver) until the test releases each one.
final class HangingReader: SensorReader {
    let source = "thermal"
    let info = SensorInfo(id: "thermal:thermal_zone0", label: "stuck", quantity: .temperature)
    private let release = DispatchSemaphore(value: 0)
    private let entered = Mutex(0)

    /// How many polls have started.
    var pollsStarted: Int { entered.withLock { $0 } }

    /// Lets one hanging poll return a sample of 50 °C.
    func releaseOne() { release.signal() }

    func discover() -> [SensorInfo] { [info] }

    func poll(at time: Timestamp) -> [SensorValues] {
        entered.withLock { $0 += 1 }
        release.wait()
        return [SensorValues(time: time, values: [50])]
    }
}
