#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Testing

/// The metrics file on disk: atomic, 0644 whatever the umask, on the clock, gone at stop.
@DaemonActor
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MetricsTextfileWriterTests {
    func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func writesMode0644WhateverTheUmaskAndLeavesNoTemporaryFile() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("sensorwatch.prom"), interval: .seconds(1))
        let writer = MetricsTextfileWriter(
            configuration: config, clock: VirtualClock(), snapshot: { MetricsSnapshot(version: "t", startTime: 1) },
            log: MemoryLog())
        let old = umask(0o077)
        defer { umask(old) }
        #expect(writer.writeNow())
        #expect(mode(config.textfile) == 0o644)
        #expect(
            TemporaryDirectory.readFile(config.textfile)
                == PrometheusExposition.render(MetricsSnapshot(version: "t", startTime: 1)))
        #expect(dir.names() == ["sensorwatch.prom"])
    }

    @Test func aFailingWriteIsLoggedOnceAndItsRecoveryOnce() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("sub/m.prom"), interval: .seconds(1))
        let log = MemoryLog()
        let writer = MetricsTextfileWriter(
            configuration: config, clock: VirtualClock(), snapshot: { MetricsSnapshot(version: "t", startTime: 1) },
            log: log)
        #expect(!writer.writeNow())
        #expect(!writer.writeNow())
        dir.mkdir("sub")
        #expect(writer.writeNow())
        #expect(writer.writeNow())
        #expect(
            log.lines == [
                "<4>cannot write the metrics file: open \(dir.path("sub"))/.m.prom.tmp: No such file or directory; retrying every 1s",
                "<5>the metrics file \(config.textfile) is written again",
            ])
    }

    static let list = SensorList(
        source: "sim#1", sensors: [SensorInfo(id: "sim:cpu", label: "CPU", quantity: .temperature)])

    /// A service on a manual clock with a model of its own, no rules.
    static func service(_ config: MetricsConfiguration?) -> (MetricsService<VirtualClock>, SensorData, VirtualClock) {
        let clock = VirtualClock()
        let data = SensorData()
        let model = DaemonModel(
            data: data, started: 0, wallClock: ManualWallClock(.epoch),
            runTime: RunTime(clock: clock, start: clock.now),
            log: MemoryLog(),
            ledger: AlertLedger(restored: [], rules: [], persist: { _ in }, wallClock: ManualWallClock(.epoch)),
            engine: { RuleEngine(rules: []) })
        let service = MetricsService(configuration: config, model: model, clock: clock, version: "t")
        return (service, data, clock)
    }

    /// The first file comes within a second (every source has been read once by then); the
    /// next ones at the first second of `SensorData` after an interval has passed, or from
    /// the service's own timer after four intervals (a minute at least) without commits; stop
    /// removes the file.
    @Test func writesWhenDueOnCommitsOrItsOwnTimerAndRemovesTheFileAtStop() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("m.prom"), interval: .seconds(15))
        let (service, data, clock) = Self.service(config)
        let list = Self.list
        var commits = 0
        func commit() async {
            // One commit a second: the service follows the model's seconds.
            var v = SensorValues(time: .seconds(Double(commits + 1)), capacity: 1)
            v.append(40 + Double(commits))
            data.commit(PollCycle(list: list, readings: v))
            commits += 1
            #expect(await service.modelWakes.until(commits))
        }
        func written() -> Bool { TemporaryDirectory.readFile(config.textfile) != nil }
        let run = Task { await service.run() }
        #expect(await clock.untilSleepers(1))
        await commit()
        #expect(!written(), "the first write is the timer's")
        clock.advance(by: .seconds(1))
        #expect(await service.writes?.until(1) == true)
        #expect(await clock.untilSleepers(1))
        #expect(written())
        unlink(config.textfile)
        clock.advance(by: .seconds(14))
        await commit()
        #expect(!written(), "not due before an interval")
        clock.advance(by: .seconds(1))
        await commit()
        #expect(await service.writes?.until(2) == true)
        #expect(written(), "due after an interval, written at the commit")
        #expect(
            TemporaryDirectory.readFile(config.textfile)?.contains(
                "sensorwatch_temperature_celsius{sensor=\"sim:cpu\",label=\"CPU\"} 42\n") == true)
        unlink(config.textfile)
        // The write at 16 s moved the backstop to four intervals (a minute) after it.
        #expect(await clock.until { $0.sleepDeadlines == [VirtualClock.Instant(offset: .seconds(76))] })
        clock.advance(by: .seconds(59))
        #expect(await clock.untilSleepers(1))
        #expect(!written(), "the backstop before four intervals without commits")
        clock.advance(by: .seconds(1))
        #expect(await service.writes?.until(3) == true)
        #expect(written(), "the backstop after four intervals without commits")
        run.cancel()
        #expect(await run.value(within: .seconds(10)) != nil, "the service did not stop")
        #expect(dir.names().isEmpty)
        clock.advance(by: .seconds(15))
        var v = SensorValues(time: .seconds(99), capacity: 1)
        v.append(1)
        data.commit(PollCycle(list: list, readings: v))
        #expect(dir.names().isEmpty)
    }

    /// Without a file the service observes nothing (no work per poll); a reload that adds
    /// one starts writing, and one that removes it removes the file.
    @Test func reloadAddsAndRemovesTheFile() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("m.prom"), interval: .seconds(1))
        let (service, data, clock) = Self.service(nil)
        let list = Self.list
        let run = Task { await service.run() }
        var v = SensorValues(time: .seconds(0), capacity: 1)
        v.append(40)
        data.commit(PollCycle(list: list, readings: v))
        #expect(clock.sleeperCount == 0)
        #expect(service.modelWakes.value == 0)
        service.reconfigure(config)
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(1))
        #expect(await eventually { TemporaryDirectory.readFile(config.textfile)?.contains("} 40\n") == true })
        service.reconfigure(nil)
        #expect(dir.names().isEmpty)
        run.cancel()
        #expect(await run.value(within: .seconds(10)) != nil, "the service did not stop")
    }

    /// With an interval of a second or more, ten commits within one second wake the
    /// service once (the model's second changes once); under a second, every commit does.
    @Test func wakesOncePerSecondOfTheModelNotAtEveryCommit() async {
        let dir = TemporaryDirectory()
        for subSecond in [false, true] {
            let interval: Duration = subSecond ? .milliseconds(50) : .seconds(1)
            let (service, data, clock) = Self.service(
                MetricsConfiguration(textfile: dir.path("m.prom"), interval: interval))
            let run = Task { await service.run() }
            // Running: the timer waits, and the model is observed.
            #expect(await clock.untilSleepers(1))
            #expect(await service.armed.until(1))
            for i in 1...21 {
                // The 21st commit is in the next second: it wakes the service once more, so a
                // wake-up left over from the twenty before would show as one too many.
                let time = i == 21 ? 3 : Double(i) / 10
                var v = SensorValues(time: .seconds(time), capacity: 1)
                v.append(40)
                data.commit(PollCycle(list: Self.list, readings: v))
                let wakes = subSecond ? i : Int(time)
                #expect(await service.modelWakes.until(wakes))
                #expect(service.modelWakes.value == wakes, "\(interval), commit \(i)")
            }
            run.cancel()
            #expect(await run.value(within: .seconds(10)) != nil, "the service did not stop")
        }
    }
}
