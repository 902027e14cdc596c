#if canImport(Glibc)
import Glibc
#endif
@testable import SensorCore
@testable import SensorRuntime
import SensorTestKit
import Testing

/// A poll's one form — readings aligned with the source's sensor list — means the same
/// everywhere it goes: engine, model, readers.
@DaemonActor
struct SensorValuesTests {
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
    static let gpu = SensorInfo(id: "sim:gpu", label: "", quantity: .temperature)
    static let room = SensorInfo(id: "sim:room", label: "", quantity: .humidity)
    static let sensors = [cpu, gpu, room]
    static let list = SensorList(source: "sim#1", sensors: sensors)

    static func values(_ t: Double, _ readings: [Double?]) -> SensorValues {
        var values = SensorValues(time: .seconds(t), capacity: readings.count)
        for r in readings {
            if let r { values.append(r) } else { values.appendFault("EIO") }
        }
        return values
    }

    @Test func aFailedReadIsNaNWithItsReasonAndAnUnreadSlotIsNeither() {
        var values = Self.values(2, [45, nil])
        values.append(.nan)
        values.appendUnread()
        #expect(values.count == 4)
        #expect(values.value(at: 0) == 45)
        #expect(values.value(at: 1) == nil)
        #expect(values.faults == [1: "EIO", 2: "not a number: NaN"])
        #expect((0..<4).map(values.wasRead) == [true, true, true, false])
        let list = SensorList(source: "sim", sensors: Self.sensors + [SensorInfo(id: "sim:x", quantity: .pressure)])
        let cycle = PollCycle(list: list, readings: values)
        #expect(
            cycle.samples == [
                Sample(sensor: "sim:cpu", time: .seconds(2), value: 45),
                Sample(sensor: "sim:gpu", time: .seconds(2), fault: "EIO"),
                Sample(sensor: "sim:room", time: .seconds(2), fault: "not a number: NaN"),
            ])
        #expect(list.parts.map(\.quantity) == [.temperature, .humidity, .pressure])
        #expect(list.parts.map(\.positions) == [[0, 1], [2], [3]])
        #expect(list.positions["sim:room"] == 2)
    }

    /// Every rule kind, faults, hysteresis and stale ticks: one list of three sensors gives
    /// the same events as three lists of one (each position maps to its own sensor).
    @Test func aListGivesTheSameEventsAsOneListPerSensor() throws {
        let rules = [
            Rule(name: "hot", selector: SensorSelector(quantity: .temperature), condition: .above(50, hysteresis: 5)),
            Rule(
                name: "dry", selector: SensorSelector(sensor: try Glob("sim:room")),
                condition: .below(20, hysteresis: 0)),
            Rule(name: "jump", selector: SensorSelector(), condition: .rise(by: 10, within: .seconds(3))),
            Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2))),
        ]
        let runs: [[Double?]] = [
            [40, 40, 30], [52, nil, 25], [47, 55, 19], [44, 56, nil], [60, nil, nil],
            [nil, nil, 18], [46, 40, 21], [30, 41, 50],
        ]
        let singles = Self.sensors.map { SensorList(source: $0.id.rawValue, sensors: [$0]) }
        var together = RuleEngine(rules: rules)
        var apart = RuleEngine(rules: rules)
        var a: [AlertEvent] = []
        var b: [AlertEvent] = []
        for (t, readings) in runs.enumerated() {
            together.process(PollCycle(list: Self.list, readings: Self.values(Double(t), readings)), into: &a)
            for (i, single) in singles.enumerated() {
                apart.process(PollCycle(list: single, readings: Self.values(Double(t), [readings[i]])), into: &b)
            }
        }
        #expect(!a.isEmpty)
        #expect(a.sorted(by: AlertEvent.inOrder) == b.sorted(by: AlertEvent.inOrder))
        #expect(Set(a.map(\.rule)) == ["hot", "dry", "jump", "silent"])
    }

    /// A hanging poll's stand-in ticks are cycles with nothing read: they check the stale
    /// rules of every listed sensor and change no value.
    @Test func standInTicksCheckTheListedSensors() {
        let rules = [Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)))]
        var engine = RuleEngine(rules: rules)
        var events: [AlertEvent] = []
        let tick = { (t: Double) in PollCycle(list: Self.list, readings: SensorValues(time: .seconds(t), unread: 3)) }
        let cycles = [
            PollCycle(list: Self.list, readings: Self.values(0, [40, 41, 42])), tick(1), tick(2), tick(3),
            PollCycle(list: Self.list, readings: Self.values(4, [40, nil, 42])), tick(5), tick(6),
        ]
        for cycle in cycles { engine.process(cycle, into: &events) }
        #expect(
            events.map { "\($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
                "firing sim:cpu@2.0", "firing sim:gpu@2.0", "firing sim:room@2.0",
                "resolved sim:cpu@4.0", "resolved sim:room@4.0",
                "firing sim:cpu@6.0", "firing sim:room@6.0",
            ])
    }

    /// A source with several quantities (an IIO device) is committed and logged as one
    /// cycle; each sensor's latest reading and each quantity's revision follow it.
    @Test func aMixedCycleIsCommittedOnceForEveryQuantity() {
        let data = SensorData()
        data.startLogging([.temperature, .humidity])
        data.commit(PollCycle(list: Self.list, readings: Self.values(0, [41, nil, 33])))
        data.commit(PollCycle(list: Self.list, readings: Self.values(1, [42, 43, 34])))
        #expect(data.latest(of: "sim:cpu") == Sample(sensor: "sim:cpu", time: .seconds(1), value: 42))
        #expect(data.latest(of: "sim:room") == Sample(sensor: "sim:room", time: .seconds(1), value: 34))
        #expect(data.revision(of: .temperature) == 2 && data.revision(of: .humidity) == 2)
        let logged = data.takeLogged()
        #expect(logged.map(\.time.seconds) == [0, 1])
        #expect(logged[0].samples.map(\.value) == [41, nil, 33])
    }

    /// A scenario's sparse instants keep each sensor's own latest reading and time.
    @Test func sparseInstantsKeepEachSensorsOwnLatestReading() {
        let data = SensorData()
        var first = SensorValues(time: .seconds(1), unread: 3)
        first.set(0, value: 50, fault: nil)
        var second = SensorValues(time: .seconds(2), unread: 3)
        second.set(2, value: nil, fault: "EIO")
        data.commit(PollCycle(list: Self.list, readings: first))
        data.commit(PollCycle(list: Self.list, readings: second))
        #expect(data.latest(of: "sim:cpu") == Sample(sensor: "sim:cpu", time: .seconds(1), value: 50))
        #expect(data.latest(of: "sim:gpu") == nil)
        #expect(data.latest(of: "sim:room") == Sample(sensor: "sim:room", time: .seconds(2), fault: "EIO"))
        #expect(data.faulty.keys.map(\.rawValue) == ["sim:room"])
    }
}
