@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The daemon on a manual clock with a scripted reader: no sleeps, time moves when told.
/// A daemon that does not stop fails its test (bounded waits) instead of hanging the run.
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct DaemonTests {
    static let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)

    func makeDaemon(
        values: [Double?], rules: [Rule], notifier: RecordingNotifier = RecordingNotifier(),
        restored: [PersistedAlert] = []
    ) -> (Daemon<VirtualClock>, VirtualClock, MemoryAlertSink, ScriptedReader) {
        let clock = VirtualClock()
        let sink = MemoryAlertSink()
        let reader = ScriptedReader(Self.cpu, values)
        let source = SourceConfiguration(kind: .simulated, interval: .seconds(1))
        let configuration = Configuration(path: "test.json5", sources: [source], rules: rules)
        let env = Daemon<VirtualClock>.Environment(
            sink: sink, notifier: notifier, reload: { configuration }, restored: restored,
            makeReader: { _ in reader })
        return (Daemon(configuration: configuration, environment: env, clock: clock), clock, sink, reader)
    }

    /// A rejected reload is an error about the reload (its own MESSAGE_ID), said where the
    /// daemon reloads; an accepted one is information of no particular kind.
    @Test func reloadEntriesNameTheirKindAndLevel() async {
        let source = SourceConfiguration(kind: .simulated, interval: .seconds(1))
        let configuration = Configuration(path: "test.json5", sources: [source], rules: [])
        let bad = ConfigErrors([ConfigError(file: "test.json5", location: .file, message: "not JSON5")])
        let attempts = Mutex(0)
        let log = MemoryLog()
        // The daemon says when it has settled (running, its first discoveries done).
        let settled = EventCount()
        let env = Daemon<VirtualClock>.Environment(
            sink: MemoryAlertSink(), log: log,
            reload: { () throws(ConfigErrors) -> Configuration in
                let n = attempts.withLock { n in
                    n += 1
                    return n
                }
                if n == 1 { throw bad }
                return configuration
            },
            makeReader: { [reader = ScriptedReader(Self.cpu, [50, 50, 50])] _ in reader },
            settled: { settled.increment() })
        let daemon = Daemon(configuration: configuration, environment: env, clock: VirtualClock())
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await settled.until(1))
        daemon.requestReload()
        #expect(await log.written.until(1))
        daemon.requestReload()
        #expect(await log.written.until(2))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(log.entries.map(\.level) == [.error, .info])
        #expect(log.entries.map(\.kind) == [.configReloadFailed, nil])
        #expect(log.entries[0].message == "reload failed, keeping the running configuration: \(bad.errors[0])")
        #expect(log.entries.allSatisfy { $0.location.file == "SensorDaemon/Daemon.swift" })
    }

    /// A daemon on one simulated source read by `reader`, with an `above: 80` rule for each
    /// (name, sensor glob), and the log it writes to.
    static func loggingDaemon(
        rules: [(String, String)], reader: ScriptedReader, clock: VirtualClock
    ) -> (Daemon<VirtualClock>, MemoryLog) {
        let source = SourceConfiguration(kind: .simulated, interval: .seconds(1))
        let rules = rules.map { name, glob in
            Rule(name: name, selector: SensorSelector(sensor: try! Glob(glob)), condition: .above(80, hysteresis: 0))
        }
        let configuration = Configuration(path: "test.json5", sources: [source], rules: rules)
        let log = MemoryLog()
        let env = Daemon<VirtualClock>.Environment(
            sink: MemoryAlertSink(), log: log, reload: { configuration }, makeReader: { _ in reader })
        return (Daemon(configuration: configuration, environment: env, clock: clock), log)
    }

    /// A rule that selects no sensor (a typo) is a warning at start, naming the id meant;
    /// a rule that selects one is not mentioned (issue 34).
    @Test func aRuleThatSelectsNoSensorIsAWarningAtStart() async throws {
        let (daemon, log) = Self.loggingDaemon(
            rules: [("hot", "sim:cpu"), ("typo", "sim:cpuu")], reader: ScriptedReader(Self.cpu, [50, 50, 50]),
            clock: VirtualClock())
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await log.written.until(1))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(log.entries.map(\.level) == [.warning])
        #expect(
            log.entries.map(\.message) == [
                #"rule "typo" selects no sensor of this machine: sensor "sim:cpuu" matches no sensor id (did you mean "sim:cpu"?)"#
            ])
    }

    /// After a rediscovery that changed the sensors, a rule that still selects nothing is
    /// said again; one that now selects its sensor is not (issue 34).
    @Test func aRuleStillWithoutASensorAfterARediscoveryIsSaidAgain() async throws {
        let clock = VirtualClock()
        let reader = ScriptedReader(Self.cpu, Array(repeating: 50, count: 100))
        let (daemon, log) = Self.loggingDaemon(
            rules: [("fan", "sim:fan"), ("pump", "sim:pump")], reader: reader, clock: clock)
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await log.written.until(2))
        // The fan is plugged in; the minute's rediscovery finds it.
        reader.appear(SensorInfo(id: "sim:fan", quantity: .fan))
        while log.entries.count < 3 {
            #expect(await clock.until { $0.sleeperCount >= 1 })
            clock.advance(by: .seconds(10))
            await daemonActorBarrier()
        }
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(
            log.entries.map(\.message) == [
                #"rule "fan" selects no sensor of this machine: sensor "sim:fan" matches no sensor id (no id is close to it; `sensorwatch sensors` lists them)"#,
                #"rule "pump" selects no sensor of this machine: sensor "sim:pump" matches no sensor id (no id is close to it; `sensorwatch sensors` lists them)"#,
                #"rule "pump" selects no sensor of this machine: sensor "sim:pump" matches no sensor id (no id is close to it; `sensorwatch sensors` lists them)"#,
            ])
    }

    @Test func pollsAtTheIntervalAndLogsFiringAndResolved() async {
        let rule = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0))
        let notifier = RecordingNotifier()
        let (daemon, clock, sink, reader) = makeDaemon(
            values: [50, 85, 86, nil, 70], rules: [rule], notifier: notifier)
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await reader.polls.until(1))
        for n in 2...5 {
            #expect(await clock.until { $0.sleeperCount >= 1 })
            clock.advance(by: .seconds(1))
            #expect(await reader.polls.until(n))
        }
        #expect(await sink.receivedEvents.until(2))
        #expect(await sink.receivedFaults.until(2))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(
            sink.events.map { "\($0.kind.rawValue)@\($0.time.seconds)=\($0.value ?? -1)" } == [
                "firing@1.0=85.0", "resolved@4.0=70.0",
            ])
        #expect(sink.faults.map { $0.reason ?? "ok" } == ["EIO", "ok"])
        #expect(notifier.sent.first?.hasPrefix("READY=1\nSTATUS=1 sensor, 0 faulty, 0 firing") == true)
        #expect(notifier.sent.last == "STOPPING=1")
    }

    /// A kept firing alert is not logged `firing` again when its first sample is still
    /// hot, and is logged `resolved` at the first cool one: both samples are evaluated
    /// before the daemon stops (the test waits for the resolution, not just a poll).
    @Test func restoredAlertIsNotLoggedTwice() async {
        let rule = Rule(name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0))
        let (daemon, clock, sink, reader) = makeDaemon(
            values: [90, 70], rules: [rule],
            restored: [
                PersistedAlert(
                    rule: "hot", sensor: Self.cpu.id.rawValue, quantity: .temperature, since: 0, severity: .warning,
                    value: 90, threshold: 80, condition: .above)
            ])
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await reader.polls.until(1))
        #expect(await clock.until { $0.sleeperCount >= 1 })
        clock.advance(by: .seconds(1))
        #expect(await sink.receivedEvents.until(1))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(sink.events.map { "\($0.kind.rawValue)@\($0.time.seconds)=\($0.value ?? -1)" } == ["resolved@1.0=70.0"])
    }

    /// Two sources of one kind (two thermal roots) used to share the engine's per-source
    /// cache, so the stale ticks of one checked the other's sensors.
    @Test func staleTicksOfTwoSourcesOfOneKindCheckTheirOwnSensors() async {
        let zone0 = SensorInfo(id: "thermal:thermal_zone0", label: "a", quantity: .temperature)
        let zone1 = SensorInfo(id: "thermal:thermal_zone1", label: "b", quantity: .temperature)
        let reading = ScriptedReader(zone0, Array(repeating: 50, count: 10))
        let silent = ScriptedReader(zone1, [])
        let sources = [
            SourceConfiguration(kind: .thermal, interval: .seconds(1), root: "/a"),
            SourceConfiguration(kind: .thermal, interval: .seconds(1), root: "/b"),
        ]
        let rule = Rule(name: "silent", selector: SensorSelector(), condition: .stale(.seconds(2)))
        let configuration = Configuration(path: "test.json5", sources: sources, rules: [rule])
        let clock = VirtualClock()
        let sink = MemoryAlertSink()
        let env = Daemon<VirtualClock>.Environment(
            sink: sink, reload: { configuration }, makeReader: { $0.root == "/a" ? reading : silent })
        let daemon = Daemon(configuration: configuration, environment: env, clock: clock)
        let run = Task { @DaemonActor in await daemon.run() }
        for n in 1...3 {
            #expect(await reading.polls.until(n))
            #expect(await silent.polls.until(n))
            #expect(await clock.until { $0.sleeperCount >= 2 })
            clock.advance(by: .seconds(1))
        }
        #expect(await sink.receivedEvents.until(1))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(
            sink.events.map { "\($0.kind.rawValue) \($0.sensor.id.rawValue)@\($0.time.seconds)" }
                == ["firing thermal:thermal_zone1@2.0"])
    }

    @Test func watchdogIsFedFromTheLoop() async {
        let notifier = RecordingNotifier(watchdog: .seconds(4))
        let (daemon, clock, _, _) = makeDaemon(values: [], rules: [], notifier: notifier)
        let run = Task { @DaemonActor in await daemon.run() }
        for _ in 0..<4 {
            #expect(await clock.until { $0.sleeperCount >= 2 })
            clock.advance(by: .seconds(1))
        }
        #expect(await notifier.pings.until(1))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(notifier.sent.contains("WATCHDOG=1"))
    }

    /// `run` tells its manager each phase through the one ``ServiceLifecycle``: READY with
    /// the status line, RELOADING with the monotonic time, READY again, STOPPING.
    @Test func theDaemonsPhasesGoOutAsTheLifecycleStates() async {
        let notifier = RecordingNotifier()
        let (daemon, _, _, _) = makeDaemon(values: [50, 50, 50], rules: [], notifier: notifier)
        let run = Task { @DaemonActor in await daemon.run() }
        #expect(await notifier.readies.until(1))
        daemon.requestReload()
        #expect(await notifier.readies.until(2))
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        let phases = notifier.states.filter { if case .status = $0 { false } else { true } }
        #expect(phases.count == 4)
        #expect(phases.first == .ready(status: "1 sensor, 0 faulty, 0 firing"))
        guard phases.count == 4, case .reloading(let usec) = phases[1] else {
            Issue.record("no RELOADING: \(phases)")
            return
        }
        #expect(usec > 0)
        #expect(
            notifier.sent[notifier.sent.firstIndex { $0.hasPrefix("RELOADING=1") }!]
                == "RELOADING=1\nMONOTONIC_USEC=\(usec)")
        if case .ready = phases[2] {} else { Issue.record("no READY after the reload: \(phases)") }
        #expect(phases[3] == .stopping)
    }
}
