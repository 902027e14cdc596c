@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Testing

/// What `SensorData` keeps of each sensor's latest and latest successful read, and the
/// metrics snapshot taken from it.
@DaemonActor
struct SensorDataReadingsTests {
    static let a = SensorInfo(id: "thermal:thermal_zone0", label: "a", quantity: .temperature)
    static let b = SensorInfo(id: "thermal:thermal_zone1", label: "b", quantity: .temperature)
    static let h = SensorInfo(id: "sim:room", label: "room", quantity: .humidity)

    static let zones = SensorList(source: "thermal#1", sensors: [a, b])

    func aligned(_ t: Double, _ values: [Double?], list: SensorList = zones) -> PollCycle {
        var v = SensorValues(time: .seconds(t), capacity: values.count)
        for x in values {
            if let x { v.append(x) } else { v.appendFault("EIO") }
        }
        return PollCycle(list: list, readings: v)
    }

    func snapshot(_ data: SensorData, rules: [Rule] = [], startTime: Double = 1000) -> MetricsSnapshot {
        MetricsSnapshot(
            version: "v", startTime: startTime, readings: data.readings, engine: RuleEngine(rules: rules),
            eventCount: { _, _ in 0 })
    }

    func sensors(_ data: SensorData, startTime: Double = 1000) -> [String] {
        snapshot(data, startTime: startTime).sensorRows
            .map {
                "\($0.info.id) up=\($0.up ? 1 : 0) value=\($0.value.map { "\($0)" } ?? "-") at=\($0.lastReading.map { "\($0)" } ?? "-")"
            }
    }

    /// A failed read keeps the last good value and its time, and says down; a sensor that
    /// never read successfully has no value at all.
    @Test func keepsTheLatestSuccessfulReadingThroughFaults() {
        let data = SensorData()
        data.commit(aligned(0, [40, nil]))
        data.commit(aligned(1, [41, nil]))
        data.commit(aligned(2, [nil, nil]))
        #expect(
            sensors(data) == [
                "thermal:thermal_zone0 up=0 value=41.0 at=1001.0",
                "thermal:thermal_zone1 up=0 value=- at=-",
            ])
        data.commit(aligned(3, [42, 50]))
        data.commit(aligned(4, [43, 51]))
        #expect(
            sensors(data) == [
                "thermal:thermal_zone0 up=1 value=43.0 at=1004.0",
                "thermal:thermal_zone1 up=1 value=51.0 at=1004.0",
            ])
        // A fault after fault-free cycles (kept as the latest readings alone) still finds
        // the last good value.
        data.commit(aligned(5, [44, 52]))
        data.commit(aligned(6, [nil, 53]))
        #expect(
            sensors(data) == [
                "thermal:thermal_zone0 up=0 value=44.0 at=1005.0",
                "thermal:thermal_zone1 up=1 value=53.0 at=1006.0",
            ])
        #expect(data.latest(of: Self.a.id)?.fault == "EIO")
    }

    /// A scenario's sparse instants: a slot not read now keeps its own time and value.
    @Test func samplesOfAScenarioAndSensorsNotYetReadAreHandled() {
        let data = SensorData()
        let list = SensorList(source: "sim#1", sensors: [Self.a, Self.h])
        var first = SensorValues(time: .seconds(1), unread: 2)
        first.set(1, value: 30, fault: nil)
        var second = SensorValues(time: .seconds(2), unread: 2)
        second.set(1, value: nil, fault: "gap")
        data.commit(PollCycle(list: list, readings: first, tick: false))
        data.commit(PollCycle(list: list, readings: second))
        #expect(sensors(data, startTime: 0) == ["sim:room up=0 value=30.0 at=1.0"])
        var third = SensorValues(time: .seconds(3), unread: 2)
        third.set(0, value: 20, fault: nil)
        data.commit(PollCycle(list: list, readings: third))
        #expect(
            sensors(data, startTime: 0) == [
                "sim:room up=0 value=30.0 at=1.0", "thermal:thermal_zone0 up=1 value=20.0 at=3.0",
            ])
        #expect(data.latest(of: Self.h.id)?.time == .seconds(2))
    }

    /// A new sensor list keeps the last good reading of sensors still in it; a source that
    /// stops takes its sensors with it.
    @Test func rediscoveryCarriesKnownSensorsOver() {
        let data = SensorData()
        data.commit(aligned(0, [40, 50]))
        data.commit(aligned(1, [nil], list: SensorList(source: "thermal#1", sensors: [Self.b])))
        #expect(sensors(data, startTime: 0) == ["thermal:thermal_zone1 up=0 value=50.0 at=0.0"])
        data.remove(source: "thermal#1")
        #expect(sensors(data).isEmpty)
    }

    /// Every rule has all three counters from the start, zeros included; alerts are the
    /// engine's (rule, sensor) pairs, counts the ledger's.
    @Test func countsEventsPerRuleAndKindAndListsEveryAlert() {
        let hot = Rule(
            name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0), severity: .critical)
        let dry = Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(20, hysteresis: 0))
        var engine = RuleEngine(rules: [hot, dry])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.zones, at: 1, [(Self.a, 90)]), into: &events)
        let ledger = AlertLedger(
            restored: [], rules: [hot, dry], persist: { _ in }, wallClock: ManualWallClock(.epoch))
        ledger.record(events)
        let s = MetricsSnapshot(
            version: "v", startTime: 0, readings: [], engine: engine,
            eventCount: { ledger.eventCount(rule: $0, kind: $1) })
        #expect(
            s.alertRows.map { "\($0.rule) \($0.sensor) \($0.severity) \($0.firing)" } == [
                "hot thermal:thermal_zone0 critical true", "hot thermal:thermal_zone1 critical false",
            ])
        #expect(
            s.events.map { "\($0.rule) \($0.event) \($0.count)" } == [
                "hot firing 1", "hot resolved 0", "hot repeat 0", "dry firing 0", "dry resolved 0", "dry repeat 0",
            ])
    }
}
