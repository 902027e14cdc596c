import Synchronization
@testable import SensorCore

/// A reader that returns the next value of a script on each poll (nil = failed read).
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

    func poll(at time: Timestamp) -> [Sample] {
        polls.withLock { $0 += 1 }
        let next = script.withLock { s -> Double?? in s.isEmpty ? .none : .some(s.removeFirst()) }
        switch next {
        case .none: return []
        case .some(.none): return [Sample(sensor: info.id, time: time, fault: "EIO")]
        case .some(.some(let v)): return [Sample(sensor: info.id, time: time, value: v)]
        }
    }
}
