import Dispatch
import Synchronization
public import SensorCore

/// A reader whose polls hang (like a stuck driver) until the test releases each one.
public final class HangingReader: SensorReader {
    public let source = "thermal"
    /// The one sensor it reads.
    public let info = SensorInfo(id: "thermal:thermal_zone0", label: "stuck", quantity: .temperature)
    private let release = DispatchSemaphore(value: 0)
    private let entered = Mutex(0)

    /// How many polls have started.
    public var pollsStarted: Int { entered.withLock { $0 } }

    /// Lets one hanging poll return a sample of 50 °C.
    public func releaseOne() { release.signal() }

    /// Makes a reader whose first poll hangs.
    public init() {}

    public func discover() -> [SensorInfo] { [info] }

    /// It hangs as a whole reader would without isolation: nothing is given up.
    public func isolateBlockedRead(now: Timestamp) -> Bool { false }

    /// It lists every sensor it has.
    public var leftOut: [String] { [] }

    public func poll(at time: Timestamp) -> [SensorValues] {
        entered.withLock { $0 += 1 }
        release.wait()
        return [SensorValues(time: time, values: [50])]
    }
}
