import Glibc
@testable import SensorCLI
import SensorCore
import SensorLive
import SensorRuntime
import SensorTerminal
import Synchronization
import Testing

#if canImport(Glibc)
#endif

/// `top`'s frames on an in-memory terminal (SPEC §22): only what changed is drawn, one write a
/// frame, a full repaint only at start, on resize and on Ctrl-L.
struct TopLoopTests {
    let terminal = MemoryTerminal(size: TerminalSize(rows: 24, columns: 80))
    let wall = ManualWallClock(WallTime(seconds: TopFixtures.t0 + 0.5))

    func loop() throws -> TopLoop {
        let clock = try BootClock()
        let environment = TerminalEnvironment { ["TERM": "xterm-256color", "LANG": "C.UTF-8"][$0] }
        let session = TopSession(
            terminal: terminal, environment: environment, clock: clock, rules: nil,
            follower: LiveFollower(path: { nil }, subscription: nil, clock: clock),
            wallClock: wall)
        var loop = TopLoop(session: session, size: TerminalSize(rows: 24, columns: 80))
        loop.draw()
        _ = loop.take(.live(.connected(path: "/x")))
        _ = loop.take(.live(.message(TopFixtures.hello)))
        _ = loop.take(.live(.message(TopFixtures.snapshot())))
        loop.draw()
        return loop
    }

    private var repaints: Int {
        terminal.writes.filter { String(decoding: $0, as: UTF8.self).contains("\u{1B}[2J") }.count
    }

    @Test func theFirstFrameIsARepaintAndEachFrameOneWrite() throws {
        _ = try loop()
        #expect(terminal.writes.count == 2)
        #expect(repaints == 1)
        #expect(terminal.text.contains("Package id 0"))
    }

    @Test func oneChangedValueCostsAtMost300BytesAndNoRepaint() throws {
        var loop = try loop()
        terminal.clear()
        var changed = TopFixtures.sensors[1]
        changed.value = 51
        _ = loop.take(.live(.message(.change(LiveChange(time: TopFixtures.t0, sensors: [changed])))))
        loop.draw()
        #expect(terminal.writes.count == 1)
        #expect((terminal.writes.first?.count ?? 0) <= 300)
        #expect(terminal.text.hasSuffix("1"))  // 50 → 51: one cell
        #expect(repaints == 0)
    }

    @Test func aSecondWithNoChangeCostsAtMost64Bytes() throws {
        var loop = try loop()
        terminal.clear()
        wall.advance(by: .seconds(1))
        _ = loop.take(.tick)
        loop.draw()
        #expect(terminal.writes.count <= 1)
        #expect(terminal.writes.joined().count <= 64)
        loop.draw()
        #expect(terminal.writes.count <= 1)
    }

    @Test func aResizeAndCtrlLRepaintInFullAndNothingElseDoes() throws {
        var loop = try loop()
        terminal.clear()
        terminal.resize(to: TerminalSize(rows: 40, columns: 120))
        _ = loop.take(.signal(SIGWINCH))
        loop.draw()
        #expect(repaints == 1)
        #expect(terminal.text.contains("Package id 0"))
        _ = loop.take(.input([0x0C]))
        loop.draw()
        #expect(repaints == 2)
        _ = loop.take(.input(Array("\u{1B}[B".utf8)))
        loop.draw()
        #expect(repaints == 2)
    }

    @Test func qCtrlCAndTheEndingSignalsEndTheRun() throws {
        var loop = try loop()
        #expect(loop.take(.input(Array("q".utf8)))?.0 == .success)
        #expect(loop.take(.input([0x03]))?.0 == .success)
        #expect(loop.take(.signal(SIGTERM))?.0 == .success)
        #expect(loop.take(.signal(SIGHUP))?.0 == .success)
        #expect(loop.take(.inputClosed)?.0 == .failure)
        #expect(loop.take(.signal(SIGWINCH)) == nil)
    }

    @Test func theDaemonGoneIsInTheHeaderAndItsReturnClearsIt() throws {
        var loop = try loop()
        _ = loop.take(.live(.lost(reason: "the daemon closed the stream")))
        loop.draw()
        #expect(loop.connection == .gone(since: TopFixtures.t0 + 0.5))
        #expect(terminal.text.contains("daemon gone since"))
        _ = loop.take(.live(.message(TopFixtures.hello)))
        #expect(loop.connection == .live)
    }

    @Test func framesComeAtMostEvery100Milliseconds() async throws {
        var loop = try loop()
        terminal.clear()
        let (events, continuation) = AsyncStream.makeStream(of: TopEvent.self)
        let started = ContinuousClock.now
        for i in 0..<50 {
            var changed = TopFixtures.sensors[1]
            changed.value = 50 + Double(i)
            continuation.yield(.live(.message(.change(LiveChange(time: TopFixtures.t0, sensors: [changed])))))
        }
        continuation.yield(.input(Array("q".utf8)))
        continuation.finish()
        let scheduled = Mutex(0)
        let end = await loop.consume(events) { _ in scheduled.withLock { $0 += 1 } }
        let elapsed = ContinuousClock.now - started
        #expect(end.0 == .success)
        // The first frame is drawn at once (and the one at start), the rest wait for the pacing.
        let allowed = 2 + Int(elapsed / .milliseconds(100))
        #expect(terminal.writes.count <= allowed)
        #expect(scheduled.withLock { $0 } <= 1)
    }
}
