import Synchronization
import SensorCore

/// A reader that returns the next value of a script on each poll (nil = failed read).
///
/// `aligned` makes it answer in the compact form sysfs readers use (``SensorValues``)
/// instead of samples; past the end of the script that form reads as a fault.
public final class ScriptedReader: SensorReader {
    public let source = "sim"
    /// The one sensor it reads.
    public let info: SensorInfo
    private let script: Mutex<[Double?]>
    private let polls = Mutex(0)
    private let aligned: Bool

    public init(_ info: SensorInfo, _ values: [Double?], aligned: Bool = false) {
        self.info = info
        self.script = Mutex(values)
        self.aligned = aligned
    }

    public func pollValues(at time: Timestamp) -> SensorValues? {
        guard aligned else { return nil }
        polls.withLock { $0 += 1 }
        var values = SensorValues(capacity: 1)
        switch script.withLock({ s -> Double?? in s.isEmpty ? .none : .some(s.removeFirst()) }) {
        case .none: values.appendFault("script ended")
        case .some(.none): values.appendFault("EIO")
        case .some(.some(let v)): values.append(v)
        }
        return values
    }

    /// How many polls have been made.
    public var pollCount: Int { polls.withLock { $0 } }

    public func discover() -> [SensorInfo] { [info] }

    public func poll(at time: Timestamp) -> [Sample] {
        polls.withLock { $0 += 1 }
        let next = script.withLock { s -> Double?? in s.isEmpty ? .none : .some(s.removeFirst()) }
        switch next {
        case .none: return []
        case .some(.none): return [Sample(sensor: info.id, time: time, fault: "EIO")]
        case .some(.some(let v)): return [Sample(sensor: info.id, time: time, value: v)]
        }
    }
}
