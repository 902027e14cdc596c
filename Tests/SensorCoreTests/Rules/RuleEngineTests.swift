import Testing
@testable import SensorCore
import SensorTestKit
@testable import SensorRuntime
struct RuleEngineTests {
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
    static let gpu = SensorInfo(id: "sim:gpu", label: "", quantity: .temperature)
    static let room = SensorInfo(id: "sim:room", label: "", quantity: .humidity)

    static let list = SensorList(source: "sim", sensors: [cpu, gpu, room])

    static func cycle(_ t: Double, _ values: [(SensorInfo, Double?)], tick: Bool = true) -> PollCycle {
        .reading(list, at: t, values, tick: tick)
    }

    @Test func selectsSensorsByGlobAndQuantity() throws {
        let rules = [
            Rule(
                name: "hot", selector: SensorSelector(sensor: try Glob("sim:c*")), condition: .above(50, hysteresis: 0)),
            Rule(
                name: "any-temp", selector: SensorSelector(quantity: .temperature), condition: .above(50, hysteresis: 0)
            ),
            Rule(
                name: "both", selector: SensorSelector(sensor: try Glob("*"), quantity: .humidity),
                condition: .above(50, hysteresis: 0)),
        ]
        var engine = RuleEngine(rules: rules)
        var events: [AlertEvent] = []
        engine.process(Self.cycle(0, [(Self.cpu, 60), (Self.gpu, 60), (Self.room, 60)]), into: &events)
        #expect(
            events.map { "\($0.rule) \($0.sensor.id)" } == [
                "hot sim:cpu", "any-temp sim:cpu", "any-temp sim:gpu", "both sim:room",
            ])
    }

    @Test func samplesComeBeforeStaleTicksAtOneInstant() {
        let rules = [Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)))]
        var engine = RuleEngine(rules: rules)
        var events: [AlertEvent] = []
        engine.process(Self.cycle(0, []), into: &events)
        engine.process(Self.cycle(1, []), into: &events)
        // At t=2 cpu has a sample and the tick follows: the sample resets it first.
        engine.process(Self.cycle(2, [(Self.cpu, 1)]), into: &events)
        #expect(
            events.map { "\($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
                "firing sim:gpu@2.0", "firing sim:room@2.0",
            ])
    }

    /// A tick skips the sensors read at its own instant only where the evaluation it skips
    /// could change nothing: a `stale` of zero (possible in code, not in a configuration)
    /// fires at the tick that follows its own reading, as every tick evaluates it.
    @Test func aTickEvaluatesTheSensorsItsReadingsReachedOnlyWhereThatCanChangeSomething() {
        var events: [AlertEvent] = []
        var zero = RuleEngine(rules: [Rule(name: "zero", selector: SensorSelector(), condition: .stale(.zero))])
        zero.process(Self.cycle(0, [(Self.cpu, 1), (Self.gpu, 1), (Self.room, 1)]), into: &events)
        #expect(
            events.map { "\($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
                "firing sim:cpu@0.0", "firing sim:gpu@0.0", "firing sim:room@0.0",
            ])

        // Positive durations: the same events as when every tick evaluated every sensor
        // (a failed read at the tick's instant counts once, as a miss).
        events = []
        var engine = RuleEngine(rules: [
            Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)), repeatEvery: .seconds(1))
        ])
        for t in 0...6 {
            let cpu: Double? = t < 1 ? 1 : nil
            engine.process(Self.cycle(Double(t), [(Self.cpu, cpu), (Self.gpu, 1)]), into: &events)
        }
        #expect(
            events.map { "\($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
                "firing sim:cpu@2.0", "firing sim:room@2.0", "repeat sim:cpu@3.0", "repeat sim:room@3.0",
                "repeat sim:cpu@4.0", "repeat sim:room@4.0", "repeat sim:cpu@5.0", "repeat sim:room@5.0",
                "repeat sim:cpu@6.0", "repeat sim:room@6.0",
            ])
    }

    @Test func restoredFiringAlertIsNotLoggedAgainButResolves() {
        let rules = [Rule(name: "hot", selector: SensorSelector(), condition: .above(50, hysteresis: 5))]
        var engine = RuleEngine(rules: rules)
        engine.restoreFiring([AlertKey(rule: "hot", sensor: "sim:cpu"), AlertKey(rule: "hot", sensor: "sim:gpu")])
        var events: [AlertEvent] = []
        // 47 is inside the hysteresis band: still firing, nothing logged. 40 resolves gpu.
        engine.process(Self.cycle(0, [(Self.cpu, 47), (Self.gpu, 40)]), into: &events)
        #expect(events.map { "\($0.kind.rawValue) \($0.sensor.id)" } == ["resolved sim:gpu"])
        #expect(Set(engine.firing.keys) == [AlertKey(rule: "hot", sensor: "sim:cpu")])
    }

    @Test func reloadKeepsStateOfRulesThatStillExist() {
        let hot = Rule(name: "hot", selector: SensorSelector(), condition: .above(50, hysteresis: 0))
        var engine = RuleEngine(rules: [hot])
        var events: [AlertEvent] = []
        engine.process(Self.cycle(0, [(Self.cpu, 60)]), into: &events)
        var changed = hot
        changed.condition = .above(55, hysteresis: 0)
        let other = Rule(name: "new", selector: SensorSelector(), condition: .above(10, hysteresis: 0))
        engine.replaceRules([other, changed], at: .seconds(1))
        events = []
        engine.process(Self.cycle(2, [(Self.cpu, 58)]), into: &events)
        // "hot" still fires (no second firing); "new" is fresh and fires.
        #expect(events.map { "\($0.rule) \($0.kind.rawValue)" } == ["new firing"])
        engine.process(Self.cycle(3, [(Self.cpu, 54)]), into: &events)
        #expect(events.map { "\($0.rule) \($0.kind.rawValue)" } == ["new firing", "hot resolved"])
    }

    /// Two sources whose lists differ are each evaluated against their own sensors, and a
    /// source whose list changes (a new discovery) is mapped afresh (regression: samples were
    /// evaluated as the sensor at the same position of another list).
    @Test func cyclesOfDifferentListsKeepTheirOwnSensors() {
        let rules = [
            Rule(name: "hot", selector: SensorSelector(quantity: .temperature), condition: .above(80, hysteresis: 0)),
            Rule(name: "dry", selector: SensorSelector(quantity: .humidity), condition: .below(25, hysteresis: 0)),
            Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(1))),
        ]
        let temps = SensorList(source: "a", sensors: [Self.cpu, Self.gpu])
        let rooms = SensorList(source: "b", sensors: [Self.room])
        var engine = RuleEngine(rules: rules)
        var events: [AlertEvent] = []
        engine.process(.reading(temps, at: 0, [(Self.cpu, 50), (Self.gpu, 50)]), into: &events)
        engine.process(.reading(rooms, at: 0, [(Self.room, 40)]), into: &events)
        engine.process(.reading(temps, at: 1, [(Self.cpu, 50), (Self.gpu, 50)]), into: &events)
        // Two instants of room in one poll (a poll that fell behind), the second one dry.
        engine.process(.reading(rooms, at: 1, [(Self.room, 40)], tick: false), into: &events)
        engine.process(.reading(rooms, at: 1, [(Self.room, 10)]), into: &events)
        // Only room reports at 2 s: cpu and gpu go stale, room does not.
        engine.process(.reading(temps, at: 2, []), into: &events)
        engine.process(.reading(rooms, at: 2, [(Self.room, 10)]), into: &events)
        // Source "a" rediscovers: cpu and gpu are gone (their stale alerts resolve as gone,
        // SPEC §20), room moved there; position 0 is room now.
        let moved = SensorList(source: "a", sensors: [Self.room])
        engine.process(.reading(moved, at: 3, [(Self.room, 30)]), into: &events)
        #expect(
            events.map { "\($0.rule) \($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
                "dry firing sim:room@1.0", "silent firing sim:cpu@2.0", "silent firing sim:gpu@2.0",
                "silent resolved sim:cpu@3.0", "silent resolved sim:gpu@3.0", "dry resolved sim:room@3.0",
            ])
        #expect(events.map(\.sensorGone) == [false, false, false, true, true, false])
    }
}
