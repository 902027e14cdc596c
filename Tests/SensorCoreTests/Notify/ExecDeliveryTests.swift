import Testing
@testable import SensorCore
import SensorTestKit

#if canImport(Glibc)
import Glibc
#endif

/// An exec target with real programs (/bin/sh) and the timeout on a virtual clock: exit 0,
/// 75 and others, a program that cannot start, a program killed by the timeout.
@DaemonActor
struct ExecDeliveryTests {
    /// `notify` ignores SIGPIPE (`CLI.prepare`): a program that exits before it reads its
    /// event must not end the process. The test process must do the same, or such a test
    /// kills the whole test run with signal 13.
    init() { signal(SIGPIPE, SIG_IGN) }

    static let event = NotifyEvent(
        realtimeMicroseconds: 1_000_000, kind: .firing, rule: "cpu-hot", severity: .critical, sensor: "sim:cpu",
        value: 85, threshold: 80, host: "h", message: "m")

    func deliver(_ script: String, clock: ManualClock = ManualClock()) async -> DeliveryOutcome {
        await ExecDelivery(argv: ["/bin/sh", "-c", script], timeout: .seconds(30), clock: clock, waiter: DescriptorWaiter())
            .deliver(Self.event)
    }

    @Test func exitStatusesDecideTheOutcomeWithTheFirstLineOfStandardError() async {
        #expect(await deliver("read line; [ \"$ALERT_RULE\" = cpu-hot ] && exit 0; exit 9") == .delivered)
        #expect(await deliver("exit 75") == .retry("exit status 75 (temporary failure)"))
        #expect(await deliver("echo 'no route to pager' >&2; echo more >&2; exit 3")
            == .failed("exit status 3: no route to pager"))
    }

    @Test func aProgramThatCannotStartIsRetried() async {
        let d = ExecDelivery(argv: ["/nonexistent/pager"], timeout: .seconds(30), clock: ManualClock(), waiter: DescriptorWaiter())
        #expect(await d.deliver(Self.event) == .retry("cannot start /nonexistent/pager: No such file or directory"))
    }

    @Test func theStandardInputIsTheEventsJSON() async {
        let files = TemporaryDirectory()
        let out = files.path("stdin")
        #expect(await deliver("cat > '\(out)'") == .delivered)
        #expect((try? TextFile.contents(of: out)) == Self.event.json + "\n")
    }

    @Test func aProgramPastItsTimeoutGetsSIGTERMAndIsRetried() async {
        let clock = ManualClock()
        let task = Task { await deliver("exec sleep 600", clock: clock) }
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(30))
        #expect(await task.value == .retry("killed after the timeout of 30s"))
    }

    /// A program that writes more to standard error than a pipe holds (64 KiB) before it
    /// exits is not held in that write until its timeout: its exit counts, with the first line.
    @Test func aProgramWritingMoreThanAPipeHoldsToStandardErrorEndsWithItsFirstLine() async {
        let clock = ManualClock()
        let task = Task { await deliver("echo 'disk full' >&2; head -c 300000 /dev/zero | tr '\\0' x >&2; exit 3", clock: clock) }
        let outcome = await task.value(within: .seconds(20))
        // Stuck in its write: the timeout on the clock lets the test end (and fail).
        if outcome == nil { clock.advance(by: .seconds(40)) }
        #expect(outcome == .failed("exit status 3: disk full"))
    }
}
