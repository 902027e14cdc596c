import CLinux
import Glibc
public import SensorRuntime

#if canImport(Glibc)
#endif

/// Delivers an event by running a program (SPEC §17): no shell, the event's JSON on standard
/// input, its `ALERT_*`/`SENSOR_*` environment; exit 0 is delivered, exit 75 (EX_TEMPFAIL),
/// a kill by the timeout or a program that cannot be started is retried, any other exit
/// failed (with the first line of its standard error).
///
/// The timeout starts with the program and covers the writing of its standard input (a
/// program that does not read it is killed like any other): SIGTERM to its process group
/// when it ends, SIGKILL 5 s later; when the program is reaped, what it left in its group is
/// killed. The timeout is waited on the injected clock; the child is awaited through its
/// pidfd (``DescriptorWaiter``), so no thread blocks in waitpid.
@DaemonActor
public final class ExecDelivery<C: RunClock>: NotifyDelivery {
    /// How long a program gets between SIGTERM and SIGKILL.
    public static var killGrace: Duration { .seconds(5) }

    private let argv: [String]
    /// How long one run may take; a reload that changes only it sets it for the next run.
    public var timeout: Duration
    private let clock: C
    private let waiter: DescriptorWaiter
    /// The programs of stopped attempts, until they are reaped (see ``release(within:)``).
    private var leaving: [ExecChild] = []

    /// - Parameter waiter: what waits for the child's pidfd.
    public init(argv: [String], timeout: Duration, clock: C, waiter: DescriptorWaiter) {
        self.argv = argv
        self.timeout = timeout
        self.clock = clock
        self.waiter = waiter
    }

    /// Runs the program once with the event: exit 0 is delivered, 75, a signal, the timeout or a failed start is retried, any other exit failed.
    public func deliver(_ event: NotifyEvent) async -> DeliveryOutcome {
        let child: ExecChild
        switch ExecChild.spawn(argv: argv, environment: event.environment, input: Array((event.json + "\n").utf8)) {
        case .success(let c): child = c
        case .failure(let why):
            return .retry(
                "cannot start \(argv[0]): \(why.operation == ExecChild.watching ? why.description : why.reason)")
        }
        // The tasks prefer the daemon's executor: on Swift's global pool the wait would
        // start libdispatch's workers and their wake-up a second (see Notifier.task).
        // An event fits a pipe's buffer but for a huge message: written at once, mostly.
        let input =
            child.writeAvailableInput()
            ? nil
            : Task(executorPreference: DaemonActor.taskExecutor) { [waiter] in await child.writeInput(waiter: waiter) }
        let errors = Task(executorPreference: DaemonActor.taskExecutor) { [waiter] in
            await child.readErrors(waiter: waiter)
        }
        defer {
            input?.cancel()
            errors.cancel()
        }
        let exited = await waitForExit(child, within: timeout)
        if Task.isCancelled {
            leave(child)
            return .retry("stopped")
        }
        if !exited {
            child.signalGroup(SIGTERM)
            if await !waitForExit(child, within: Self.killGrace) {
                if Task.isCancelled {
                    leave(child)
                    return .retry("stopped")
                }
                child.signalGroup(SIGKILL)
                do { try await waiter.readable(child.pidfd) } catch {
                    leave(child)
                    return .retry("stopped")
                }
            }
            _ = child.reap()
            child.close()
            return .retry("killed after the timeout of \(NumberText.duration(seconds: timeout.seconds))")
        }
        let status = child.reap()
        let stderrLine = child.firstErrorLine()
        child.close()
        let detail = stderrLine.isEmpty ? "" : ": " + stderrLine
        switch status {
        case .exited(0): return .delivered
        case .exited(75): return .retry("exit status 75 (temporary failure)" + detail)
        case .exited(let code): return .failed("exit status \(code)" + detail)
        case .signalled(let sig): return .retry("killed by signal \(sig)" + detail)
        }
    }

    /// A stopped attempt (SIGTERM, SIGHUP dropping the target): its group gets SIGTERM now
    /// and SIGKILL after the grace, and the program is reaped when it exits, on a task of its
    /// own that the stop does not wait for (SIGTERM stops within a second) nor cancel.
    private func leave(_ child: ExecChild) {
        child.signalGroup(SIGTERM)
        leaving.removeAll(where: \.reaped)
        leaving.append(child)
        Task(executorPreference: DaemonActor.taskExecutor) { [clock, waiter] in
            await Self.finish(child, clock: clock, waiter: waiter)
        }
    }

    /// Gives the programs of stopped attempts `limit` to end, then kills their process groups.
    public func release(within limit: Duration) async {
        let deadline = clock.now.advanced(by: limit)
        for child in leaving where !child.reaped {
            if await !waitForExit(child, within: clock.now.duration(to: deadline)) { child.signalGroup(SIGKILL) }
        }
        leaving.removeAll()
    }

    /// SIGKILL to the group of a program still running after the grace, then its reaping.
    private static func finish(_ child: ExecChild, clock: C, waiter: DescriptorWaiter) async {
        if await !race(pidfd: child.pidfd, clock: clock, waiter: waiter, limit: killGrace) {
            child.signalGroup(SIGKILL)
            try? await waiter.readable(child.pidfd)
        }
        _ = child.reap()
        child.close()
    }

    /// Whether the child exited within `limit` (false also when the task was cancelled).
    private func waitForExit(_ child: ExecChild, within limit: Duration) async -> Bool {
        await Self.race(pidfd: child.pidfd, clock: clock, waiter: waiter, limit: limit)
    }

    private nonisolated static func race(
        pidfd: Int32, clock: C, waiter: DescriptorWaiter, limit: Duration
    ) async -> Bool {
        await withTimer({ (try? await clock.sleep(for: limit)) != nil }) { (try? await waiter.readable(pidfd)) != nil }
            ?? false
    }
}
