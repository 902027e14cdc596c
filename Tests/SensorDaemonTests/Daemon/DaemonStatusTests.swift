#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// `run` keeps the status file (SPEC §19): written at once, rewritten within a second of a
/// change of a sensor's health or an alert's state and at least every 10 s, mode 0644,
/// gone at a clean stop.
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct DaemonStatusTests {
    private func mode(_ path: String) -> mode_t? {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o777 : nil
    }

    /// A status service on `path` over `data`, timed by `clock`, with no rules.
    private func service(
        path: String?, data: SensorData = SensorData(), clock: VirtualClock,
        wallClock: ManualWallClock = ManualWallClock(.epoch), log: MemoryLog = MemoryLog()
    ) -> StatusService<VirtualClock> {
        let ledger = AlertLedger(restored: [], rules: [], persist: { _ in }, wallClock: ManualWallClock(.epoch))
        let model = DaemonModel(
            data: data, started: 0, wallClock: wallClock, runTime: RunTime(clock: clock, start: clock.now), log: log,
            ledger: ledger, engine: { RuleEngine(rules: []) })
        return StatusService(path: path, model: model, clock: clock, version: "1")
    }

    @Test func fileFollowsHealthAndAlertStatesAndGoesAtStop() async {
        let dir = TemporaryDirectory()
        let cpu = SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)
        let reader = ScriptedReader(cpu, [50, 85, 86, nil, nil])
        let rule = Rule(
            name: "hot", selector: SensorSelector(), condition: .above(80, hysteresis: 0), holdFor: .seconds(1))
        let file = dir.path("status.json")
        let configuration = Configuration(
            path: "test.json5", sources: [SourceConfiguration(kind: .simulated, interval: .seconds(1))], rules: [rule],
            statusFile: file)
        let clock = VirtualClock()
        let env = Daemon<VirtualClock>.Environment(
            sink: MemoryAlertSink(), reload: { configuration },
            wallClock: ManualWallClock(WallTime(seconds: 1_800_000_000)),
            makeReader: { _ in reader },
            version: "9.9")
        let daemon = Daemon(configuration: configuration, environment: env, clock: clock)
        let run = Task { @DaemonActor in await daemon.run() }
        func text() -> String { TemporaryDirectory.readFile(file) ?? "" }
        #expect(await eventually { text().contains("\"version\":\"9.9\"") })
        #expect(mode(file) == 0o644)
        #expect(text().contains("\"started\":\"2027-01-15T08:00:00.000Z\""))
        #expect(text().contains("\"pid\":\(getpid())"))
        // Each change shows before the clock moves on: a pending alert (seen at the model's
        // next whole second), a firing one, a failing read; no 10-second refresh comes due.
        #expect(await reader.polls.until(1))
        var polled = 1
        for (n, expected) in [
            (
                2,
                "{\"id\":\"sim:cpu\",\"label\":\"CPU\",\"quantity\":\"temperature\",\"unit\":\"°C\",\"value\":85,\"time\":\"2027-01-15T08:00:01.000Z\",\"ok\":true,\"error\":null,\"limits\":null}"
            ),
            (
                2,
                "{\"rule\":\"hot\",\"sensor\":\"sim:cpu\",\"severity\":\"warning\",\"state\":\"pending\",\"since\":\"2027-01-15T08:00:01.000Z\",\"value\":85,\"threshold\":80,\"condition\":\"above\",\"limit\":null,\"within\":null,\"unit\":\"°C\",\"thresholdText\":\"80 °C\"}"
            ),
            (3, "\"state\":\"firing\""),
            (4, "\"ok\":false,\"error\":\"EIO\""),
        ] {
            while polled < n {
                // The poller and the status file's 10-second timer wait on the clock.
                #expect(await clock.until { $0.sleeperCount >= 2 })
                clock.advance(by: .seconds(1))
                polled += 1
                #expect(await reader.polls.until(polled))
            }
            #expect(await eventually { text().contains(expected) }, "\(expected) in\n\(text())")
        }
        daemon.requestStop()
        #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        #expect(dir.names().isEmpty, "left \(dir.names())")
    }

    /// The service is given the clock itself, not a sleep split off it: its refresh timer
    /// sleeps on the test's manual clock, and `updated` is the injected time of day.
    @Test func theRefreshSleepsOnTheInjectedClockAndStampsTheInjectedTimeOfDay() async {
        let dir = TemporaryDirectory()
        let clock = VirtualClock()
        let wall = ManualWallClock(WallTime(seconds: 1_800_000_000))
        let file = dir.path("status.json")
        let service = service(path: file, clock: clock, wallClock: wall)
        let run = Task { @DaemonActor in await service.run() }
        #expect(await service.writes.until(1))
        #expect(TemporaryDirectory.readFile(file)?.contains("\"updated\":\"2027-01-15T08:00:00.000Z\"") == true)
        #expect(await clock.untilSleepers(1))
        #expect(clock.sleepDeadlines == [VirtualClock.Instant(offset: .seconds(10))])
        wall.advance(by: .milliseconds(10_250))
        clock.advance(by: .seconds(10))
        #expect(await service.writes.until(2))
        #expect(TemporaryDirectory.readFile(file)?.contains("\"updated\":\"2027-01-15T08:00:10.250Z\"") == true)
        run.cancel()
        await run.value
    }

    @Test func withoutChangesTheFileIsRewrittenEveryTenSeconds() async {
        let dir = TemporaryDirectory()
        let clock = VirtualClock()
        let data = SensorData()
        let service = service(path: dir.path("status.json"), data: data, clock: clock)
        let run = Task { @DaemonActor in await service.run() }
        #expect(await service.writes.until(1))
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(9))
        #expect(await clock.untilSleepers(1))
        #expect(service.writeCount == 1)
        clock.advance(by: .seconds(1))
        #expect(await service.writes.until(2))
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(10))
        #expect(await service.writes.until(3))
        run.cancel()
        await run.value
        #expect(dir.names().isEmpty)
    }

    /// With a sample every second the 10-second rewrite is done at the model's own wake-up
    /// before the 10 s are up (the ninth second), and the timer is moved at each write:
    /// it never expires, so no thread wakes for it while polls keep up.
    @Test func withASampleEverySecondTheRefreshRidesOnItAndTheTimerNeverExpires() async {
        let dir = TemporaryDirectory()
        let clock = VirtualClock()
        let data = SensorData()
        let service = service(path: dir.path("status.json"), data: data, clock: clock)
        let list = SensorList(source: "sim", sensors: [SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)])
        data.commit(PollCycle(list: list, readings: SensorValues(time: .zero, values: [50])))
        let run = Task { @DaemonActor in await service.run() }
        #expect(await service.writes.until(1))
        #expect(await clock.until { $0.sleepDeadlines == [VirtualClock.Instant(offset: .seconds(10))] })
        var writtenAt: [Int] = []
        for second in 1...30 {
            clock.advance(by: .seconds(1))
            let before = service.writeCount
            let looked = service.lookCount
            data.commit(PollCycle(list: list, readings: SensorValues(time: .seconds(Double(second)), values: [50])))
            let lastWrite = writtenAt.last ?? 0
            let written = second - lastWrite >= 9
            #expect(
                await eventually {
                    service.lookCount > looked
                        && clock.sleepDeadlines == [
                            VirtualClock.Instant(offset: .seconds(Int64((written ? second : lastWrite) + 10)))
                        ]
                        && service.writeCount == before + (written ? 1 : 0)
                }, "at \(second) s: timer \(clock.sleepDeadlines), \(service.writeCount) writes")
            if service.writeCount > before { writtenAt.append(second) }
        }
        #expect(writtenAt == [9, 18, 27])
        run.cancel()
        await run.value
    }

    @Test func withoutAPathNothingIsWrittenAndNothingWaits() async {
        let clock = VirtualClock()
        let service = service(path: nil, clock: clock)
        let run = Task { @DaemonActor in await service.run() }
        await daemonActorBarrier()
        #expect(clock.sleeperCount == 0)
        run.cancel()
        await run.value
        #expect(service.writeCount == 0)
    }

    @Test func aFileThatCannotBeWrittenIsLoggedOnceAndTheServiceKeepsRunning() async {
        let clock = VirtualClock()
        let logged = MemoryLog()
        let service = service(path: "/nonexistent/dir/status.json", clock: clock, log: logged)
        let run = Task { @DaemonActor in await service.run() }
        #expect(await service.writes.until(1))
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(10))
        #expect(await service.writes.until(2))
        #expect(
            logged.lines == [
                "<4>cannot write the status file: open /nonexistent/dir/.status.json.tmp: No such file or directory; retrying every 10s"
            ])
        run.cancel()
        await run.value
    }

    @Test func theConfigurationNamesTheFileRelativeToItself() throws {
        let dir = TemporaryDirectory()
        dir.write("c.json5", "{ statusFile: \"run/status.json\" }")
        #expect(try ConfigLoader.load(path: dir.path("c.json5")).statusFile == dir.path("run/status.json"))
        #expect(
            TemporaryDirectory.configErrors(of: "{ statusFile: \"dir/\" }") == [
                "c.json5: statusFile: must name a file (where `run` keeps its status)"
            ])
        #expect(
            TemporaryDirectory.configErrors(of: "{ statusFile: 3 }") == [
                "c.json5: statusFile: expected a string, found a number"
            ])
    }
}
