import Synchronization
@testable import SensorCore

/// A reader of one sensor that returns the next value of a script on each poll (nil = failed
/// read, `EIO`); past the end of the script a poll returns no reading at all.
final class ScriptedReader: SensorReader {
    let source = "sim"
    let info: SensorInfo
    private let script: Mutex<[Double?]>
    private let polls = Mutex(0)

    init(_ info: SensorInfo, _ values: [Double?]) {
        self.info = info
        self.script = Mutex(values)
    }

    var pollCount: Int { polls.withLock { $0 } }

    func discover() -> [SensorInfo] { [info] }

    func poll(at time: Timestamp) -> [SensorValues] {
        polls.withLock { $0 += 1 }
        var values = SensorValues(time: time, capacity: 1)
        switch script.withLock({ s -> Double?? in s.isEmpty ? .none : .some(s.removeFirst()) }) {
        case .none: return []
        case .some(.none): values.appendFault("EIO")
        case .some(.some(let v)): values.append(v)
        }
        return [values]
    }
}
