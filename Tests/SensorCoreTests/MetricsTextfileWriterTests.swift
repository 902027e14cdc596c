#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import SensorCore
import SensorTestKit

/// The metrics file on disk: atomic, 0644 whatever the umask, on the clock, gone at stop.
@DaemonActor
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MetricsTextfileWriterTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        func log(_ priority: Int, _ message: String) { lines.withLock { $0.append("<\(priority)>\(message)") } }
        var all: [String] { lines.withLock { $0 } }
    }

    func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    @Test func writesMode0644WhateverTheUmaskAndLeavesNoTemporaryFile() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("sensorwatch.prom"), interval: .seconds(1))
        let writer = MetricsTextfileWriter(
            configuration: config, clock: ManualClock(), snapshot: { MetricsSnapshot(version: "t", startTime: 1) },
            log: { _, _ in })
        let old = umask(0o077)
        defer { umask(old) }
        #expect(writer.writeNow())
        #expect(mode(config.textfile) == 0o644)
        #expect(TemporaryDirectory.readFile(config.textfile) == PrometheusExposition.render(MetricsSnapshot(version: "t", startTime: 1)))
        #expect(dir.names() == ["sensorwatch.prom"])
    }

    @Test func aFailingWriteIsLoggedOnceAndItsRecoveryOnce() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("sub/m.prom"), interval: .seconds(1))
        let log = Log()
        let writer = MetricsTextfileWriter(
            configuration: config, clock: ManualClock(), snapshot: { MetricsSnapshot(version: "t", startTime: 1) },
            log: log.log)
        #expect(!writer.writeNow())
        #expect(!writer.writeNow())
        dir.mkdir("sub")
        #expect(writer.writeNow())
        #expect(writer.writeNow())
        #expect(log.all == [
            "<4>cannot write the metrics file: open \(dir.path("sub"))/.m.prom.tmp: No such file or directory; retrying every 1s",
            "<5>the metrics file \(config.textfile) is written again",
        ])
    }

    /// The first file comes within a second (every source has been read once by then); the
    /// next ones when the daemon reports a poll and an interval has passed, or from the
    /// service's own timer after four intervals without polls; stop removes the file.
    @Test func writesWhenDueOnPollsOrItsOwnTimerAndRemovesTheFileAtStop() async {
        let dir = TemporaryDirectory()
        let config = MetricsConfiguration(textfile: dir.path("m.prom"), interval: .seconds(15))
        let clock = ManualClock()
        let service = MetricsService(
            configuration: config, clock: clock, startTime: 0, version: "t",
            sleep: { try await clock.sleep(for: $0) }, log: { _, _ in }, engine: { RuleEngine(rules: []) })
        func written() -> Bool { TemporaryDirectory.readFile(config.textfile) != nil }
        let run = Task { await service.run() }
        await eventually { clock.sleeperCount == 1 }
        service.afterPoll()
        #expect(!written(), "the first write is the timer's")
        clock.advance(by: .seconds(1))
        await eventually { written() && clock.sleeperCount == 1 }
        unlink(config.textfile)
        clock.advance(by: .seconds(14))
        service.afterPoll()
        #expect(!written(), "not due before an interval")
        clock.advance(by: .seconds(1))
        service.afterPoll()
        #expect(written(), "due after an interval, written on the poll")
        unlink(config.textfile)
        clock.advance(by: .seconds(45))
        #expect(await eventually { written() }, "the backstop after four intervals without polls")
        run.cancel()
        #expect(await run.value(within: .seconds(10)) != nil, "the service did not stop")
        #expect(dir.names().isEmpty)
        clock.advance(by: .seconds(15))
        service.afterPoll()
        #expect(dir.names().isEmpty)
    }
}
