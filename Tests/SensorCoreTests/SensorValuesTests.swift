#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCore
import SensorTestKit

/// The compact form of a poll (one value per listed sensor) must mean exactly what the
/// same poll as samples means, everywhere it goes: engine, model, daemon.
@MainActor
struct SensorValuesTests {
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
    static let gpu = SensorInfo(id: "sim:gpu", label: "", quantity: .temperature)
    static let room = SensorInfo(id: "sim:room", label: "", quantity: .humidity)
    static let sensors = [cpu, gpu, room]

    static func values(_ readings: [Double?]) -> SensorValues {
        var values = SensorValues(capacity: readings.count)
        for r in readings {
            if let r { values.append(r) } else { values.appendFault("EIO") }
        }
        return values
    }

    static func aligned(_ t: Double, _ readings: [Double?], discovery: UInt64) -> PollCycle {
        PollCycle(source: "sim#1", time: .seconds(t), sensors: sensors, values: values(readings), discovery: discovery)
    }

    static func asSamples(_ cycle: PollCycle) -> PollCycle {
        PollCycle(
            source: cycle.source, time: cycle.time, sensors: cycle.sensors, samples: cycle.samples,
            tick: cycle.tick, discovery: cycle.discovery)
    }

    @Test func aFailedReadIsNaNWithItsReasonAndReadsBackAsAFaultSample() {
        var values = Self.values([45, nil, 30])
        values.append(.nan)
        #expect(values.count == 4)
        #expect(values.value(at: 0) == 45)
        #expect(values.value(at: 1) == nil)
        #expect(values.faults == [1: "EIO", 3: "not a number: NaN"])
        let cycle = PollCycle(
            source: "sim", time: .seconds(2), sensors: Self.sensors + [SensorInfo(id: "sim:x", quantity: .pressure)],
            values: values)
        #expect(cycle.samples == [
            Sample(sensor: "sim:cpu", time: .seconds(2), value: 45),
            Sample(sensor: "sim:gpu", time: .seconds(2), fault: "EIO"),
            Sample(sensor: "sim:room", time: .seconds(2), value: 30),
            Sample(sensor: "sim:x", time: .seconds(2), fault: "not a number: NaN"),
        ])
        #expect(cycle.sampleCount == 4)
        #expect(cycle == Self.asSamples(cycle))
        #expect(values.subset([2, 1]) == Self.values([30, nil]))
    }

    /// Every rule kind, faults, hysteresis and stale ticks: the engine gives the same events
    /// for a run of aligned cycles as for the same cycles given as samples, with and
    /// without a known discovery (the cached and the looked-up paths).
    @Test(arguments: [UInt64(0), 1])
    func alignedCyclesGiveTheSameEventsAsSamples(discovery: UInt64) throws {
        let rules = [
            Rule(name: "hot", selector: SensorSelector(quantity: .temperature), condition: .above(50, hysteresis: 5)),
            Rule(name: "dry", selector: SensorSelector(sensor: try Glob("sim:room")), condition: .below(20, hysteresis: 0)),
            Rule(name: "jump", selector: SensorSelector(), condition: .rise(by: 10, within: .seconds(3))),
            Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2))),
        ]
        let runs: [[Double?]] = [
            [40, 40, 30], [52, nil, 25], [47, 55, 19], [44, 56, nil], [60, nil, nil],
            [nil, nil, 18], [46, 40, 21], [30, 41, 50],
        ]
        var byValues = RuleEngine(rules: rules)
        var bySamples = RuleEngine(rules: rules)
        var a: [AlertEvent] = []
        var b: [AlertEvent] = []
        for (t, readings) in runs.enumerated() {
            let cycle = Self.aligned(Double(t), readings, discovery: discovery)
            byValues.process(cycle, into: &a)
            bySamples.process(Self.asSamples(cycle), into: &b)
        }
        #expect(!a.isEmpty)
        #expect(a == b)
        #expect(Set(a.map(\.rule)) == ["hot", "dry", "jump", "silent"])
    }

    /// A hanging poll's stand-in ticks come as empty sample cycles between aligned ones of
    /// the same source and list: both forms share the engine's per-list positions.
    @Test func standInTicksBetweenAlignedCyclesCheckTheSameSensors() {
        let rules = [Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)))]
        var mixed = RuleEngine(rules: rules)
        var reference = RuleEngine(rules: rules)
        var a: [AlertEvent] = []
        var b: [AlertEvent] = []
        let tick = { (t: Double) in
            PollCycle(source: "sim#1", time: .seconds(t), sensors: Self.sensors, samples: [], discovery: 1)
        }
        let cycles = [Self.aligned(0, [40, 41, 42], discovery: 1), tick(1), tick(2), tick(3),
                      Self.aligned(4, [40, nil, 42], discovery: 1), tick(5), tick(6)]
        for cycle in cycles {
            mixed.process(cycle, into: &a)
            reference.process(cycle.values == nil ? cycle : Self.asSamples(cycle), into: &b)
        }
        #expect(a == b)
        #expect(a.map { "\($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" } == [
            "firing sim:cpu@2.0", "firing sim:gpu@2.0", "firing sim:room@2.0",
            "resolved sim:cpu@4.0", "resolved sim:room@4.0",
            "firing sim:cpu@6.0", "firing sim:room@6.0",
        ])
    }

    /// A source with several quantities (an IIO device) in compact form reaches each
    /// quantity's readings and log with only its own sensors and values.
    @Test func aMixedAlignedCycleIsSplitByQuantity() {
        let data = SensorData()
        data.startLogging([.temperature, .humidity])
        for discovery in [UInt64(1), 1] {
            data.commit(Self.aligned(0, [41, nil, 33], discovery: discovery))
        }
        #expect(data.temperature.latest == [
            "sim:cpu": Sample(sensor: "sim:cpu", time: .zero, value: 41),
            "sim:gpu": Sample(sensor: "sim:gpu", time: .zero, fault: "EIO"),
        ])
        #expect(data.humidity.latest == ["sim:room": Sample(sensor: "sim:room", time: .zero, value: 33)])
        let logged = data.takeLogged()
        #expect(logged.count == 4)
        #expect(logged.map { $0.sensors.map(\.id.rawValue) } == [
            ["sim:cpu", "sim:gpu"], ["sim:room"], ["sim:cpu", "sim:gpu"], ["sim:room"],
        ])
        #expect(logged[1].values == Self.values([33]))
        #expect(logged[0].samples.map(\.value) == [41, nil])
    }

    /// The readers' compact poll is the same reading as their sample poll, faults included,
    /// and a stale descriptor found by the batched read is reopened like any other.
    @Test func aReaderPollsTheSameInBothForms() throws {
        let tree = SysfsTestTree()
        tree.write(["thermal_zone0/type": "a\n", "thermal_zone0/temp": "45000\n",
                    "thermal_zone1/type": "b\n", "thermal_zone1/temp": "oops\n",
                    "thermal_zone2/type": "c\n", "thermal_zone2/temp": "-274000\n"])
        let io = SysfsFaultIO()
        let reader = ThermalZoneReader(
            configuration: SourceConfiguration(kind: .thermal, interval: .seconds(1), root: tree.root), io: io)
        #expect(reader.pollValues(at: .zero) == nil, "no compact form before a discovery")
        let sensors = reader.discover()
        let values = try #require(reader.pollValues(at: .zero))
        let samples = reader.poll(at: .zero)
        #expect(values.samples(of: sensors, at: .zero) == samples)
        #expect(samples.map { $0.fault ?? "ok" } == ["ok", "not a number: \"oops\"", "out of range: -274.0 °C"])
        io.failReads("thermal_zone0/temp", once: [ENODEV])
        #expect(reader.pollValues(at: .seconds(1))?.value(at: 0) == 45)
        #expect(io.opens("thermal_zone0/temp") == 2)
        #expect(io.closes("thermal_zone0/temp") == 1)
    }
}
