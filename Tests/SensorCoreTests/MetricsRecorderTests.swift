import Testing
@testable import SensorCore

/// What the metrics file learns from poll cycles and events.
struct MetricsRecorderTests {
    static let a = SensorInfo(id: "thermal:thermal_zone0", label: "a", quantity: .temperature)
    static let b = SensorInfo(id: "thermal:thermal_zone1", label: "b", quantity: .temperature)
    static let h = SensorInfo(id: "sim:room", label: "room", quantity: .humidity)

    static let zones = SensorList(source: "thermal#1", sensors: [a, b])

    func aligned(_ t: Double, _ values: [Double?]) -> PollCycle {
        var v = SensorValues(time: .seconds(t), capacity: values.count)
        for x in values {
            if let x { v.append(x) } else { v.appendFault("EIO") }
        }
        return PollCycle(list: Self.zones, readings: v)
    }

    func sensors(_ r: inout MetricsRecorder, rules: [Rule] = []) -> [String] {
        r.snapshot(engine: RuleEngine(rules: rules), version: "v").sensorRows
            .map { "\($0.info.id) up=\($0.up ? 1 : 0) value=\($0.value.map { "\($0)" } ?? "-") at=\($0.lastReading.map { "\($0)" } ?? "-")" }
    }

    /// A failed read keeps the last good value and its time, and says down; a sensor that
    /// never read successfully has no value at all.
    @Test func keepsTheLatestSuccessfulReadingThroughFaults() {
        var r = MetricsRecorder(startTime: 1000)
        r.record(aligned(0, [40, nil]))
        r.record(aligned(1, [41, nil]))
        r.record(aligned(2, [nil, nil]))
        #expect(sensors(&r) == [
            "thermal:thermal_zone0 up=0 value=41.0 at=1001.0",
            "thermal:thermal_zone1 up=0 value=- at=-",
        ])
        r.record(aligned(3, [42, 50]))
        r.record(aligned(4, [43, 51]))
        #expect(sensors(&r) == [
            "thermal:thermal_zone0 up=1 value=43.0 at=1004.0",
            "thermal:thermal_zone1 up=1 value=51.0 at=1004.0",
        ])
        // A fault after fault-free cycles (kept without being folded) still finds the last good value.
        r.record(aligned(5, [44, 52]))
        r.record(aligned(6, [nil, 53]))
        #expect(sensors(&r) == [
            "thermal:thermal_zone0 up=0 value=44.0 at=1005.0",
            "thermal:thermal_zone1 up=1 value=53.0 at=1006.0",
        ])
    }

    @Test func samplesOfAScenarioAndSensorsNotYetReadAreHandled() {
        var r = MetricsRecorder(startTime: 0)
        let list = SensorList(source: "sim#1", sensors: [Self.a, Self.h])
        var first = SensorValues(time: .seconds(1), unread: 2)
        first.set(1, value: 30, fault: nil)
        var second = SensorValues(time: .seconds(2), unread: 2)
        second.set(1, value: nil, fault: "gap")
        r.record(PollCycle(list: list, readings: first, tick: false))
        r.record(PollCycle(list: list, readings: second))
        #expect(sensors(&r) == ["sim:room up=0 value=30.0 at=1.0"])
    }

    /// A new sensor list keeps what is known of the sensors still in it.
    @Test func rediscoveryCarriesKnownSensorsOver() {
        var r = MetricsRecorder(startTime: 0)
        r.record(aligned(0, [40, 50]))
        var v = SensorValues(time: .seconds(1), capacity: 1)
        v.appendFault("EIO")
        r.record(PollCycle(list: SensorList(source: "thermal#1", sensors: [Self.b]), readings: v))
        #expect(sensors(&r) == ["thermal:thermal_zone1 up=0 value=50.0 at=0.0"])
        r.forget(source: "thermal#1")
        #expect(sensors(&r).isEmpty)
    }

    /// Every rule has all three counters from the start, zeros included; alerts are the
    /// engine's (rule, sensor) pairs.
    @Test func countsEventsPerRuleAndKindAndListsEveryAlert() {
        let hot = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0), severity: .critical)
        let dry = Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(20, hysteresis: 0))
        var engine = RuleEngine(rules: [hot, dry])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.zones, at: 1, [(Self.a, 90)]), into: &events)
        var r = MetricsRecorder(startTime: 0)
        for e in events { r.count(e) }
        let s = r.snapshot(engine: engine, version: "v")
        #expect(s.alertRows.map { "\($0.rule) \($0.sensor) \($0.severity) \($0.firing)" } == [
            "hot thermal:thermal_zone0 critical true", "hot thermal:thermal_zone1 critical false",
        ])
        #expect(s.events.map { "\($0.rule) \($0.event) \($0.count)" } == [
            "hot firing 1", "hot resolved 0", "hot repeat 0", "dry firing 0", "dry resolved 0", "dry repeat 0",
        ])
    }
}
