public import SensorCore
public import SensorRuntime
import Synchronization

/// A reader of one sensor that returns the next value of a script on each poll (nil = failed
/// read, `EIO`); past the end of the script a poll returns no reading at all. Sensors a test
/// makes appear (``appear(_:)``) are found at the next discovery and read 50.
public final class ScriptedReader: SensorReader {
    public let source = "sim"
    /// The one sensor it reads.
    public let info: SensorInfo
    private let script: Mutex<[Double?]>
    private let appeared = Mutex<[SensorInfo]>([])
    /// How many of them the last discovery listed: polls are aligned with it.
    private let discovered = Mutex(0)

    public init(_ info: SensorInfo, _ values: [Double?]) {
        self.info = info
        self.script = Mutex(values)
    }

    /// How many polls have been made (a test waits for the one it needs: `polls.until(n)`).
    package let polls = EventCount()
    /// How many polls have been made so far.
    public var pollCount: Int { polls.value }

    public func discover() -> [SensorInfo] {
        let extra = appeared.withLock { $0 }
        discovered.withLock { $0 = extra.count }
        return [info] + extra
    }

    /// A sensor that comes (a device plugged in): listed from the next discovery on.
    public func appear(_ sensor: SensorInfo) { appeared.withLock { $0.append(sensor) } }

    /// Scripted readings never block.
    public func isolateBlockedRead(now: Timestamp) -> Bool { false }

    /// It lists every sensor it has.
    public var leftOut: [String] { [] }

    public func poll(at time: Timestamp) -> [SensorValues] {
        polls.increment()
        var values = SensorValues(time: time, capacity: 1)
        switch script.withLock({ s -> Double?? in s.isEmpty ? .none : .some(s.removeFirst()) }) {
        case .none: return []
        case .some(.none): values.appendFault("EIO")
        case .some(.some(let v)): values.append(v)
        }
        for _ in 0..<discovered.withLock({ $0 }) { values.append(50) }
        return [values]
    }
}
