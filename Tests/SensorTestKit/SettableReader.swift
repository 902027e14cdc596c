public import SensorCore
public import SensorRuntime
import Synchronization

/// A reader of many sensors whose values a test sets between polls (nil: a failed read,
/// `EIO`), and whose sensor set it can change (a rediscovery then lists the new set): each
/// poll reads the values as they are.
public final class SettableReader: SensorReader {
    public let source = "sim"
    private struct State {
        /// The set a discovery lists.
        var infos: [SensorInfo]
        /// The set the last discovery listed (what a poll reads).
        var discovered: [SensorInfo] = []
        var values: [SensorID: Double?]
    }

    private let state: Mutex<State>

    /// Sensors `infos`, each starting at `start`.
    public init(_ infos: [SensorInfo], start: Double = 20) {
        state = Mutex(State(infos: infos, values: Dictionary(uniqueKeysWithValues: infos.map { ($0.id, start) })))
    }

    /// `count` temperature sensors `sim:s0000`, `sim:s0001`, ….
    public convenience init(count: Int, start: Double = 20) {
        let pad = { (i: Int) in String(repeating: "0", count: 4 - String(i).count) + String(i) }
        self.init(
            (0..<count).map { SensorInfo(id: SensorID("sim:s" + pad($0)), label: "S\($0)", quantity: .temperature) },
            start: start)
    }

    /// How many polls have been made.
    package let polls = EventCount()

    /// Sets a sensor's value from the next poll on.
    public func set(_ id: SensorID, _ value: Double?) { state.withLock { $0.values[id] = .some(value) } }

    /// Replaces the sensor set: the poll thread sees the change at its next poll and
    /// discovers again.
    public func list(_ infos: [SensorInfo]) {
        state.withLock { s in
            s.infos = infos
            for info in infos where s.values[info.id] == nil { s.values[info.id] = .some(20) }
        }
    }

    public func discover() -> [SensorInfo] {
        state.withLock { s in
            s.discovered = s.infos
            return s.infos
        }
    }

    public func devicesChanged() -> Bool { state.withLock { $0.discovered != $0.infos } }

    public func isolateBlockedRead(now: Timestamp) -> Bool { false }

    public var leftOut: [String] { [] }

    public func poll(at time: Timestamp) -> [SensorValues] {
        defer { polls.increment() }
        return state.withLock { s in
            var values = SensorValues(time: time, capacity: s.discovered.count)
            for info in s.discovered {
                if let v = s.values[info.id] ?? nil { values.append(v) } else { values.appendFault("EIO") }
            }
            return [values]
        }
    }
}
