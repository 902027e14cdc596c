import Dispatch
public import SensorCore
public import SensorRuntime

/// A reader whose polls hang (like a stuck driver) until the test releases each one.
public final class HangingReader: SensorReader {
    public let source = "thermal"
    /// The one sensor it reads.
    public let info = SensorInfo(id: "thermal:thermal_zone0", label: "stuck", quantity: .temperature)
    private let release = DispatchSemaphore(value: 0)
    /// How many polls have started (a test waits for them: `started.until(n)`).
    package let started = EventCount()

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
        started.increment()
        release.wait()
        return [SensorValues(time: time, values: [50])]
    }
}
