import Glibc
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing
@testable import SensorCore
#if canImport(Glibc)
#endif

/// An exec target with real programs (/bin/sh) and the timeout on a virtual clock: exit 0,
/// 75 and others, a program that cannot start, a program killed by the timeout.
@DaemonActor
struct ExecDeliveryTests {
    /// The descriptor waiter the deliveries wait on (a thread of its own).
    let waiter: DescriptorWaiter

    /// `notify` ignores SIGPIPE (`CLI.prepare`): a program that exits before it reads its
    /// event must not end the process. The test process must do the same, or such a test
    /// kills the whole test run with signal 13.
    init() throws {
        signal(SIGPIPE, SIG_IGN)
        waiter = try DescriptorWaiter()
    }

    static let event = NotifyEvent(
        realtimeMicroseconds: 1_000_000, kind: .firing, rule: "cpu-hot", severity: .critical, sensor: "sim:cpu",
        value: 85, threshold: 80, host: "h", message: "m")

    func deliver(_ script: String, clock: VirtualClock = VirtualClock()) async -> DeliveryOutcome {
        await ExecDelivery(argv: ["/bin/sh", "-c", script], timeout: .seconds(30), clock: clock, waiter: waiter)
            .deliver(Self.event)
    }

    @Test func exitStatusesDecideTheOutcomeWithTheFirstLineOfStandardError() async {
        #expect(await deliver("read line; [ \"$ALERT_RULE\" = cpu-hot ] && exit 0; exit 9") == .delivered)
        #expect(await deliver("exit 75") == .retry("exit status 75 (temporary failure)"))
        #expect(
            await deliver("echo 'no route to pager' >&2; echo more >&2; exit 3")
                == .failed("exit status 3: no route to pager"))
    }

    @Test func aProgramThatCannotStartIsRetried() async {
        let d = ExecDelivery(argv: ["/nonexistent/pager"], timeout: .seconds(30), clock: VirtualClock(), waiter: waiter)
        #expect(await d.deliver(Self.event) == .retry("cannot start /nonexistent/pager: No such file or directory"))
    }

    /// An event too large for the program's environment (one variable holds at most
    /// 128 KiB) cannot start it: retried like a removed program, until `giveUp`.
    @Test func anEventTooLargeForTheEnvironmentIsRetried() async {
        var huge = Self.event
        huge.message = String(repeating: "x", count: 200_000)
        let d = ExecDelivery(argv: ["/bin/true"], timeout: .seconds(30), clock: VirtualClock(), waiter: waiter)
        #expect(await d.deliver(huge) == .retry("cannot start /bin/true: Argument list too long"))
    }

    @Test func theStandardInputIsTheEventsJSON() async {
        let files = TemporaryDirectory()
        let out = files.path("stdin")
        #expect(await deliver("cat > '\(out)'") == .delivered)
        #expect((try? TextFile.contents(of: out)) == Self.event.json + "\n")
    }

    @Test func aProgramPastItsTimeoutGetsSIGTERMAndIsRetried() async {
        let clock = VirtualClock()
        let task = Task { await deliver("exec sleep 600", clock: clock) }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(30))
        #expect(await task.value == .retry("killed after the timeout of 30s"))
    }

    /// A program that writes more to standard error than a pipe holds (64 KiB) before it
    /// exits is not held in that write until its timeout: its exit counts, with the first line.
    @Test func aProgramWritingMoreThanAPipeHoldsToStandardErrorEndsWithItsFirstLine() async {
        let clock = VirtualClock()
        let task = Task {
            await deliver("echo 'disk full' >&2; head -c 300000 /dev/zero | tr '\\0' x >&2; exit 3", clock: clock)
        }
        let outcome = await task.value(within: .seconds(20))
        // Stuck in its write: the timeout on the clock lets the test end (and fail).
        if outcome == nil { clock.advance(by: .seconds(40)) }
        #expect(outcome == .failed("exit status 3: disk full"))
    }

    /// Whether process `pid` runs (not gone, not a zombie).
    static func running(_ pid: pid_t) -> Bool {
        guard let stat = try? TextFile.contents(of: "/proc/\(pid)/stat") else { return false }
        // The state follows the parenthesised command name.
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// The pid a program wrote to `file`, once it is there.
    static func pid(in file: String) async -> pid_t? {
        await eventually { ((try? TextFile.contents(of: file)) ?? "").hasSuffix("\n") }
        return (try? TextFile.contents(of: file)).flatMap { pid_t($0.dropLast()) }
    }

    /// An event larger than a pipe holds: its writing waits for the program, which here
    /// never reads it; the timeout runs all the same, and `notify` does not wait on it.
    @Test func aProgramThatNeverReadsAnEventLargerThanAPipeIsKilledAtItsTimeout() async {
        var big = Self.event
        big.message = String(repeating: "x", count: 100_000)
        let clock = VirtualClock()
        let d = ExecDelivery(
            argv: ["/bin/sh", "-c", "exec sleep 600"], timeout: .seconds(2), clock: clock, waiter: waiter)
        let task = Task { await d.deliver(big) }
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(2))
        #expect(await task.value(within: .seconds(20)) == .retry("killed after the timeout of 2s"))
    }

    /// The timeout signals the program's process group: what a shell wrapper started is gone too.
    @Test func theTimeoutKillsWhatTheProgramStarted() async {
        let files = TemporaryDirectory()
        let pidFile = files.path("pid")
        let clock = VirtualClock()
        let task = Task {
            await deliver("sleep 600 & echo $! > '\(pidFile)'; trap '' TERM; while :; do sleep 1; done", clock: clock)
        }
        let grandchild = await Self.pid(in: pidFile)
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(30))
        // The wrapper ignores SIGTERM: SIGKILL after the grace.
        #expect(await clock.untilSleepers(1))
        clock.advance(by: ExecDelivery<VirtualClock>.killGrace)
        #expect(await task.value(within: .seconds(20)) == .retry("killed after the timeout of 30s"))
        #expect(await eventually { grandchild.map { !Self.running($0) } ?? false })
    }

    /// What a program leaves running in its group when it exits does not outlive it.
    @Test func whatAProgramLeavesInItsGroupIsKilledWhenItExits() async {
        let files = TemporaryDirectory()
        let pidFile = files.path("pid")
        #expect(
            await deliver("sleep 600 & echo $! > '\(pidFile)'; exit 75") == .retry("exit status 75 (temporary failure)")
        )
        let grandchild = await Self.pid(in: pidFile)
        #expect(await eventually { grandchild.map { !Self.running($0) } ?? false })
    }

    /// A delivery stopped (SIGTERM, SIGHUP) leaves no zombie: the program is reaped once it ends.
    @Test func aStoppedDeliveryReapsItsProgram() async {
        let files = TemporaryDirectory()
        let pidFile = files.path("pid")
        let clock = VirtualClock()
        let task = Task { await deliver("echo $$ > '\(pidFile)'; exec sleep 600", clock: clock) }
        let child = await Self.pid(in: pidFile)
        #expect(await clock.untilSleepers(1))
        task.cancel()
        #expect(await task.value(within: .seconds(20)) == .retry("stopped"))
        // Reaped: not even a zombie under /proc.
        #expect(await eventually { child.map { access("/proc/\($0)", F_OK) != 0 } ?? false })
    }

    /// No descriptor of `notify` beyond 0–2 reaches the program, close-on-exec or not.
    @Test func noDescriptorBeyondTheStandardOnesReachesTheProgram() async {
        let inherited = open("/dev/null", O_RDONLY)
        #expect(inherited > 2)
        defer { close(inherited) }
        #expect(await deliver("[ -e /proc/$$/fd/\(inherited) ] && exit 3; exit 0") == .delivered)
    }

    /// At the notifier's stop, a stopped program that ignores SIGTERM is killed once the
    /// release's limit has passed: nothing outlives `notify`.
    @Test func aStoppedProgramIgnoringSIGTERMIsKilledAtTheRelease() async {
        let files = TemporaryDirectory()
        let pidFile = files.path("pid")
        let clock = VirtualClock()
        let d = ExecDelivery(
            argv: ["/bin/sh", "-c", "trap '' TERM; echo $$ > '\(pidFile)'; exec sleep 600"], timeout: .seconds(30),
            clock: clock, waiter: waiter)
        let task = Task { await d.deliver(Self.event) }
        let child = await Self.pid(in: pidFile)
        #expect(await clock.untilSleepers(1))
        task.cancel()
        #expect(await task.value(within: .seconds(20)) == .retry("stopped"))
        let release = Task { await d.release(within: .milliseconds(500)) }
        // The grace's wait and the release's.
        #expect(await clock.untilSleepers(2))
        #expect(child.map(Self.running) == true)
        clock.advance(by: .milliseconds(500))
        await release.value
        #expect(await eventually { child.map { access("/proc/\($0)", F_OK) != 0 } ?? false })
    }
}
