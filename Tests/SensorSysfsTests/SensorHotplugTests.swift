@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
@testable import SensorSysfs
import SensorTestKit
import Testing

/// Sensors that appear and go while running (SPEC §20): found at the next poll, one entry
/// each, a gone sensor's firing alerts resolve with the reason and no `stale` fires for it,
/// and one that comes back is the same sensor, counted afresh.
@Suite(.timeLimit(.minutes(1)))
struct SensorHotplugTests {
    static let cpu = SensorInfo(id: "thermal:x86_pkg_temp", label: "x86_pkg_temp", quantity: .temperature)
    static let wifi = SensorInfo(id: "thermal:iwlwifi_1", label: "iwlwifi_1", quantity: .temperature)
    static let hot = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0))
    static let silent = Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)))

    static func both(at t: Double = 0) -> SensorList {
        SensorList(source: "thermal#1", sensors: [cpu, wifi], discovered: .seconds(t))
    }

    static func cpuOnly(at t: Double) -> SensorList {
        SensorList(source: "thermal#1", sensors: [cpu], discovered: .seconds(t))
    }

    static func lines(_ events: [AlertEvent]) -> [String] {
        events.map {
            "\($0.rule) \($0.kind.rawValue) \($0.sensor.id)@\($0.time.seconds)" + ($0.sensorGone ? " gone" : "")
        }
    }

    @Test func aGoneSensorsFiringAlertResolvesWithReasonGoneAndNoValue() {
        var engine = RuleEngine(rules: [Self.hot])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.both(), at: 0, [(Self.cpu, 50), (Self.wifi, 90)]), into: &events)
        let after = Self.cpuOnly(at: 1)
        engine.process(.reading(after, at: 1, [(Self.cpu, 50)]), into: &events)
        #expect(Self.lines(events) == ["hot firing thermal:iwlwifi_1@0.0", "hot resolved thermal:iwlwifi_1@1.0 gone"])
        #expect(events.last?.value == nil)
        #expect(engine.firing.isEmpty)
        #expect(
            EventFormatter.json(events[1])
                == #"{"time":1.0,"event":"resolved","rule":"hot","sensor":"thermal:iwlwifi_1","severity":"warning","value":null,"threshold":80,"reason":"sensor gone"}"#
        )
        #expect(events[1].message == "hot resolved: thermal:iwlwifi_1 (iwlwifi_1) sensor gone")
    }

    /// The source's only sensor going still resolves: the engine sees the empty list.
    @Test func theLastSensorOfASourceGoingResolvesToo() {
        var engine = RuleEngine(rules: [Self.hot])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.cpuOnly(at: 0), at: 0, [(Self.cpu, 90)]), into: &events)
        let empty = SensorList(source: "thermal#1", sensors: [], discovered: .seconds(1))
        engine.process(.reading(empty, at: 1, [], tick: false), into: &events)
        #expect(
            Self.lines(events) == ["hot firing thermal:x86_pkg_temp@0.0", "hot resolved thermal:x86_pkg_temp@1.0 gone"])
    }

    @Test func aGoneSensorGetsNoStaleFiringAndOneThatComesBackIsCountedAfresh() {
        var engine = RuleEngine(rules: [Self.hot, Self.silent])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.both(), at: 0, [(Self.cpu, 50), (Self.wifi, 90)]), into: &events)
        let after = Self.cpuOnly(at: 1)
        for t in 1...10 { engine.process(.reading(after, at: Double(t), [(Self.cpu, 50)]), into: &events) }
        #expect(Self.lines(events) == ["hot firing thermal:iwlwifi_1@0.0", "hot resolved thermal:iwlwifi_1@1.0 gone"])
        // Its alerts leave the metrics while it is away.
        func alerts() -> [String] {
            var out: [String] = []
            engine.forEachAlert { r, e, _ in out.append("\(engine.rules[r].name) \(engine.sensors[e].id)") }
            return out
        }
        #expect(alerts() == ["hot thermal:x86_pkg_temp", "silent thermal:x86_pkg_temp"])
        // Back under the same id at 11 s: no stale firing for the time it was away, and
        // its hot reading fires anew (its alert resolved when it went).
        let back = Self.both(at: 11)
        engine.process(.reading(back, at: 11, [(Self.cpu, 50), (Self.wifi, 91)]), into: &events)
        engine.process(.reading(back, at: 12, [(Self.cpu, 50)]), into: &events)
        #expect(Self.lines(events).dropFirst(2) == ["hot firing thermal:iwlwifi_1@11.0"])
        #expect(engine.sensors.filter { $0.id == Self.wifi.id }.count == 1)
        #expect(alerts().count == 4)
        // It goes stale as any sensor does: 2 s after its last reading.
        engine.process(.reading(back, at: 13, [(Self.cpu, 50)]), into: &events)
        #expect(Self.lines(events).last == "silent firing thermal:iwlwifi_1@13.0")
    }

    /// A reload that restarts the source (a new key) is not a sensor going.
    @Test func aSourceThatStopsIsNotGone() {
        var engine = RuleEngine(rules: [Self.hot])
        var events: [AlertEvent] = []
        engine.process(.reading(Self.both(), at: 0, [(Self.cpu, 90)]), into: &events)
        engine.forget(source: "thermal#1")
        let restarted = SensorList(source: "thermal#2", sensors: [Self.wifi], discovered: .seconds(1))
        engine.process(.reading(restarted, at: 1, [(Self.wifi, 50)]), into: &events)
        #expect(Self.lines(events) == ["hot firing thermal:x86_pkg_temp@0.0"])
    }

    @Test @DaemonActor func adoptingAListSaysOnceWhatAppearedAndWent() {
        let data = SensorData()
        data.startLogging([.temperature])
        // A source's first list: nothing appeared, it was there from the start.
        #expect(data.adopt(Self.cpuOnly(at: 0)).isEmpty)
        let both = Self.both(at: 1)
        #expect(data.adopt(both) == [SensorPresence(time: .seconds(1), sensor: Self.wifi, appeared: true)])
        #expect(data.adopt(both).isEmpty)
        #expect(!data.hasLogged)
        let after = Self.cpuOnly(at: 2)
        #expect(data.adopt(after) == [SensorPresence(time: .seconds(2), sensor: Self.wifi, appeared: false)])
        // The list goes to the rule loop at once, nothing read, so the alerts resolve.
        #expect(
            data.takeLogged().map { "\($0.list === after) \($0.time.seconds) \($0.samples.count) \($0.tick)" } == [
                "true 2.0 0 false"
            ])
        #expect(data.sensor(Self.wifi.id) == nil && data.sensorCount == 1)
    }

    /// A faulty sensor that goes is dropped, not "recovered", and not failing any more.
    @Test @DaemonActor func aFailingSensorThatGoesIsNoLongerFaulty() {
        let data = SensorData()
        let both = Self.both()
        data.commit(.reading(both, at: 0, [(Self.cpu, 50), (Self.wifi, nil)]))
        #expect(data.faulty.keys.sorted() == [Self.wifi.id])
        data.adopt(Self.cpuOnly(at: 1))
        #expect(data.faulty.isEmpty)
    }

    /// The look before each poll: a class directory's names as one number.
    @Test func aDirectorysFingerprintChangesWhenANameComesOrGoesAndOnlyThen() {
        let tree = TemporaryDirectory()
        tree.write(["thermal_zone0/temp": "1\n", "thermal_zone1/temp": "1\n"])
        let before = SysfsTree.fingerprint(tree.root)
        #expect(before != nil && SysfsTree.fingerprint(tree.root) == before)
        // What is inside a zone is not the class directory's business.
        tree.write("thermal_zone0/type", "acpitz\n")
        #expect(SysfsTree.fingerprint(tree.root) == before)
        tree.mkdir("thermal_zone2")
        let three = SysfsTree.fingerprint(tree.root)
        #expect(three != before)
        tree.remove("thermal_zone2")
        #expect(SysfsTree.fingerprint(tree.root) == before)
        tree.remove("thermal_zone1")
        tree.mkdir("thermal_zone3")
        #expect(SysfsTree.fingerprint(tree.root) != before)
        #expect(SysfsTree.fingerprint(tree.path("missing")) == nil)
    }

    static func reader(_ root: String) -> SysfsReader {
        SysfsReader(configuration: SourceConfiguration(kind: .thermal, interval: .seconds(1), root: root))
    }

    /// A poller on `tree` at 1 s on a manual clock, and what it delivers, one poll at a time.
    static func poller(_ tree: TemporaryDirectory, clock: VirtualClock) throws -> (SourcePoller, AsyncStream<PollCycle>)
    {
        let (cycles, delivered) = AsyncStream.makeStream(of: PollCycle.self)
        let poller = SourcePoller(
            reader: reader(tree.root), interval: .seconds(1), pacer: PollPacer(clock: clock, start: clock.now)
        ) { _, cycles in
            for cycle in cycles { delivered.yield(cycle) }
        }
        try poller.start()
        return (poller, cycles)
    }

    static func readings(_ cycle: PollCycle?) -> [String] {
        (cycle?.samples ?? []).map { s in
            "\(s.sensor.rawValue)=" + (s.value.map { "\($0)" } ?? s.fault?.description ?? "?")
        }
    }

    @Test func aZoneThatAppearsIsReadAtTheNextPollAndOneThatGoesIsNotReadAgain() async throws {
        let tree = TemporaryDirectory()
        tree.write(["thermal_zone0/type": "x86_pkg_temp\n", "thermal_zone0/temp": "45000\n"])
        let clock = VirtualClock()
        let (poller, cycles) = try Self.poller(tree, clock: clock)
        var next = cycles.makeAsyncIterator()
        #expect(Self.readings(await next.next()) == ["thermal:x86_pkg_temp=45.0"])
        // Far from the minute's rediscovery: only the class directory's listing tells.
        tree.write(["thermal_zone1/type": "iwlwifi_1\n", "thermal_zone1/temp": "38000\n"])
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(1))
        #expect(Self.readings(await next.next()) == ["thermal:iwlwifi_1=38.0", "thermal:x86_pkg_temp=45.0"])
        tree.remove("thermal_zone1")
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(1))
        let after = await next.next()
        #expect(Self.readings(after) == ["thermal:x86_pkg_temp=45.0"])
        #expect(after?.readings.faults.isEmpty == true)
        poller.stop()
    }
}
