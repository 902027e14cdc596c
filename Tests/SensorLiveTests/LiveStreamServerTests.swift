import Glibc
import SensorConfig
import SensorCore
import SensorDaemon
@testable import SensorLive
import SensorRuntime
import SensorTestKit
import Testing

#if canImport(Glibc)
#endif

/// `run`'s live stream (SPEC §22) against a daemon on a manual clock and real Unix sockets.
///
/// Not on the daemon's actor: a test's reads block its thread, and the daemon needs its own.
@Suite(.timeLimit(.minutes(1)))
struct LiveStreamServerTests {
    /// A running daemon with a stream, over `reader`'s sensors.
    @DaemonActor
    final class Running {
        let dir = TemporaryDirectory()
        nonisolated let clock = VirtualClock()
        nonisolated let reader: SettableReader
        nonisolated let publisher: LiveStreamPublisher
        let daemon: Daemon<VirtualClock>
        let run: Task<Void, Never>
        nonisolated var path: String { publisher.path }
        var polled = 0

        init(
            _ reader: SettableReader, rules: [Rule] = [], silences: any LiveSilenceSource = NoLiveSilenceSource(),
            interval: Duration = .seconds(1)
        ) async {
            self.reader = reader
            publisher = LiveStreamPublisher(path: dir.path("run/live.sock"), host: "testhost", silences: silences)
            let configuration = Configuration(
                path: "test.json5", sources: [SourceConfiguration(kind: .simulated, interval: interval)], rules: rules)
            var env = Daemon<VirtualClock>.Environment(
                sink: MemoryAlertSink(), reload: { configuration },
                wallClock: ManualWallClock(WallTime(seconds: 1_800_000_000)),
                makeReader: { [reader] _ in reader })
            env.publishers = [publisher]
            daemon = Daemon(configuration: configuration, environment: env, clock: clock)
            let daemon = self.daemon
            run = Task { @DaemonActor in await daemon.run() }
            #expect(await publisher.events.listening.until(1))
            #expect(await reader.polls.until(1))
            polled = 1
        }

        /// One more poll (the clock moves by the interval).
        func poll(by interval: Duration = .seconds(1)) async {
            #expect(await clock.until { $0.alarmDeadlines.count >= 1 })
            clock.advance(by: interval)
            polled += 1
            #expect(await reader.polls.until(polled))
        }

        func stop() async {
            daemon.requestStop()
            #expect(await run.value(within: .seconds(10)) != nil, "the daemon did not stop")
        }
    }

    @Test func helloSnapshotThenOnlyWhatChanged() async throws {
        let r = await Running(SettableReader(count: 1000))
        let client = try #require(StreamTestClient(path: r.path))
        client.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        guard case .hello(let hello)? = client.next() else { Issue.record("no hello"); return }
        #expect(hello.version == 1 && hello.host == "testhost" && hello.pid == Int(getpid()))
        guard case .snapshot(let snapshot)? = client.next() else { Issue.record("no snapshot"); return }
        #expect(snapshot.sensors.count == 1000)
        #expect(snapshot.sensors.first?.value == 20)
        #expect(snapshot.history["sim:s0000"]?.first?.last == 20)
        // The same values again are no change; one sensor moved is one sensor.
        await r.poll()
        r.reader.set("sim:s0500", 31.5)
        await r.poll()
        guard case .change(let change)? = client.next() else { Issue.record("no change"); return }
        #expect(change.sensors.map(\.id) == ["sim:s0500"])
        #expect(change.sensors.first?.value == 31.5)
        #expect(change.alerts.isEmpty && change.gone.isEmpty && change.silences == nil)
        await r.stop()
        #expect(access(r.path, F_OK) != 0, "the socket is left at a clean stop")
    }

    @Test func aSubscriptionGetsOnlyItsSensorsAndTheirAlerts() async throws {
        let hot = Rule(name: "hot", selector: SensorSelector(), condition: .above(25, hysteresis: 0))
        let r = await Running(SettableReader(count: 20), rules: [hot])
        let client = try #require(StreamTestClient(path: r.path))
        client.send(LiveSubscription(sensors: [try Glob("sim:s001?")]).line + "\n")
        let snapshot = try #require(client.start())
        #expect(snapshot.sensors.map(\.id) == (10..<20).map { "sim:s00\($0)" })
        r.reader.set("sim:s0003", 30)
        r.reader.set("sim:s0013", 30)
        await r.poll()
        // The alert may come in a change of its own, after the rule loop has seen the sample.
        var state = LiveState()
        state.apply(.snapshot(snapshot))
        var ids: Set<String> = []
        while state.alerts.isEmpty, case .change(let c)? = client.next() {
            state.apply(.change(c))
            ids.formUnion(c.sensors.map(\.id))
        }
        #expect(ids == ["sim:s0013"])
        #expect(state.alerts.values.map(\.sensor) == ["sim:s0013"])
        #expect(state.alerts.values.first?.state == .firing)
        r.reader.set("sim:s0013", 20)
        await r.poll()
        var resolved: [LiveAlert] = []
        while resolved.isEmpty, case .change(let c)? = client.next() { resolved = c.alerts }
        #expect(resolved.map(\.state) == [.ok])
        await r.stop()
    }

    /// Silences as a journal would give them.
    struct FixedSilences: LiveSilenceSource {
        let silences: [Silence]
        func read() -> SilenceBook? { SilenceBook(silences) }
    }

    @Test func activeSilencesAndTheAlertsTheyHoldAreShown() async throws {
        let hot = Rule(name: "hot", selector: SensorSelector(), condition: .above(25, hysteresis: 0))
        // The daemon's wall clock is 1_800_000_000 s: one silence holds then, one has ended.
        let holding = Silence(
            id: "s1", rule: try Glob("hot"), sensor: try Glob("sim:s0001"),
            startsMicroseconds: 1_799_999_000_000_000, endsMicroseconds: 1_800_003_600_000_000, by: "root")
        let ended = Silence(id: "s2", startsMicroseconds: 1_000_000, endsMicroseconds: 2_000_000, by: "root")
        let reader = SettableReader(count: 3)
        reader.set("sim:s0001", 30)
        let r = await Running(reader, rules: [hot], silences: FixedSilences(silences: [holding, ended]))
        await r.poll()
        // The first client's arrival reads the silences; its changes (or a later snapshot) show them.
        let first = try #require(StreamTestClient(path: r.path))
        first.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        var state = LiveState()
        state.apply(.snapshot(try #require(first.start())))
        while state.silences.isEmpty || state.alerts.isEmpty, let m = first.next() { state.apply(m) }
        #expect(state.silences.map(\.id) == ["s1"])
        #expect(state.silences.first?.rule == "hot" && state.silences.first?.ends == 1_800_003_600)
        let alert = try #require(state.alerts.values.first)
        #expect(alert.sensor == "sim:s0001" && alert.state == .firing)
        let second = try #require(StreamTestClient(path: r.path))
        second.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        let snapshot = try #require(second.start())
        #expect(snapshot.silences.map(\.id) == ["s1"])
        #expect(snapshot.alerts.map(\.silenced) == [1_800_003_600])
        await r.stop()
    }

    /// One more poll at 100 ms, and the stream's look at what it read.
    private func pollAndLook(_ r: Running) async {
        let looks = r.publisher.events.looks.value
        await r.poll(by: .milliseconds(100))
        #expect(await r.publisher.events.looks.until(looks + 1))
    }

    /// A daemon polling 10 sensors every 100 ms and a client that got the change of
    /// `sim:s0001` (a round of changes went out at that look); nil after recording why not.
    private func runningAfterOneChange() async throws -> (Running, StreamTestClient)? {
        let r = await Running(SettableReader(count: 10), interval: .milliseconds(100))
        let client = try #require(StreamTestClient(path: r.path))
        client.send(LiveSubscription(sensors: [try Glob("*")]).line + "\n")
        #expect(client.start() != nil)
        r.reader.set("sim:s0001", 30)
        await pollAndLook(r)
        guard case .change(let first)? = client.next(), first.sensors.map(\.id) == ["sim:s0001"] else {
            Issue.record("no change of sim:s0001")
            return nil
        }
        return (r, client)
    }

    @Test func changesSoonerThanThePaceGoOutTogetherAtTheNextLookPastIt() async throws {
        guard let (r, client) = try await runningAfterOneChange() else { return }
        // 100 ms after that change: held. 200 ms after it: sent, with the held one.
        r.reader.set("sim:s0002", 31)
        await pollAndLook(r)
        r.reader.set("sim:s0003", 32)
        await pollAndLook(r)
        guard case .change(let second)? = client.next() else { Issue.record("no change"); return }
        #expect(second.sensors.map(\.id) == ["sim:s0002", "sim:s0003"])
        #expect(second.sensors.map(\.value) == [31, 32])
        await r.stop()
    }

    @Test func aHeldChangeGoesOutAtTheBackstopWhenNoLookComes() async throws {
        guard let (r, client) = try await runningAfterOneChange() else { return }
        r.reader.set("sim:s0002", 31)
        await pollAndLook(r)
        // Held: the backstop sleeps until 250 ms after the change before, 150 ms from now;
        // the poll between finds nothing new, so no look sends it.
        let backstop = r.clock.now.advanced(by: .milliseconds(150))
        #expect(await r.clock.until { $0.sleepDeadlines.contains(backstop) })
        r.clock.advance(by: .milliseconds(150))
        guard case .change(let held)? = client.next() else { Issue.record("no change"); return }
        #expect(held.sensors.map(\.id) == ["sim:s0002"])
        await r.stop()
    }

    @Test func withoutARequestTheSnapshotComesAfterTwoHundredMilliseconds() async throws {
        let r = await Running(SettableReader(count: 3))
        let client = try #require(StreamTestClient(path: r.path))
        #expect(await r.publisher.events.accepted.until(1))
        // The client's 200 ms wait (the silences' 10 s one may be there too).
        let limit = r.clock.now.advanced(by: .milliseconds(200))
        #expect(await r.clock.until { $0.sleepDeadlines.contains { $0 <= limit } })
        #expect(r.publisher.events.snapshots.value == 0)
        r.clock.advance(by: .milliseconds(200))
        #expect(client.start()?.sensors.count == 3)
        await r.stop()
    }

    @Test(arguments: [
        "junk\n", "{\"subscribe\":{\"sensor\":[\"*\"]}}\n{\"subscribe\":{}}\n", "{\"silence\":{\"add\":1}}\n",
    ])
    func junkOrASecondLineGetsAnErrorAndTheEnd(sent: String) async throws {
        let r = await Running(SettableReader(count: 2))
        let client = try #require(StreamTestClient(path: r.path))
        client.send(sent)
        var sawError = false
        while let m = client.next() { if case .error = m { sawError = true } }
        #expect(sawError)
        await r.stop()
    }

    @Test func aLineAfterTheSnapshotGetsAnError() async throws {
        let r = await Running(SettableReader(count: 2))
        let client = try #require(StreamTestClient(path: r.path))
        client.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        #expect(client.start() != nil)
        client.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        guard case .error(let message)? = client.next() else { Issue.record("no error"); return }
        #expect(message.contains("nothing after"))
        #expect(client.ended())
        await r.stop()
    }

    @Test func theSixtyFifthClientGetsAnError() async throws {
        let r = await Running(SettableReader(count: 2))
        var clients: [StreamTestClient] = []
        for _ in 0..<64 { clients.append(try #require(StreamTestClient(path: r.path))) }
        #expect(await r.publisher.events.accepted.until(64))
        let extra = try #require(StreamTestClient(path: r.path))
        guard case .error(let message)? = extra.next() else { Issue.record("no error"); return }
        #expect(message.contains("too many clients"))
        #expect(extra.ended())
        // One goes: the next is taken.
        clients.removeLast()
        #expect(await r.publisher.events.closed.until(1))
        let again = try #require(StreamTestClient(path: r.path))
        again.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        #expect(again.start() != nil)
        await r.stop()
    }

    @Test func aClientWhoseBufferStaysFullIsClosedAfterSixtySeconds() async throws {
        let r = await Running(SettableReader(count: 3000))
        let client = try #require(StreamTestClient(path: r.path, receiveBuffer: 4096))
        client.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        let limit = r.clock.now.advanced(by: .seconds(60))
        #expect(await r.publisher.events.fullWaits.until(1))
        #expect(await r.clock.until { $0.sleepDeadlines.contains(limit) })
        // The daemon keeps polling meanwhile.
        await r.poll()
        #expect(r.publisher.events.closed.value == 0)
        r.clock.advance(by: .seconds(58))
        #expect(r.publisher.events.closed.value == 0)
        r.clock.advance(by: .seconds(1))
        #expect(await r.publisher.events.closed.until(1))
        #expect(client.ended())
        await r.stop()
    }

    @Test func stopWithClientsAttachedIsPrompt() async throws {
        let r = await Running(SettableReader(count: 10))
        let a = try #require(StreamTestClient(path: r.path))
        a.send("{\"subscribe\":{\"sensor\":[\"*\"]}}\n")
        #expect(a.start() != nil)
        let b = try #require(StreamTestClient(path: r.path, receiveBuffer: 4096))
        _ = b
        #expect(await r.publisher.events.accepted.until(2))
        await r.stop()
        #expect(a.ended())
    }
}
