@testable import SensorConfig
@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing

/// One target's lane in virtual time: journal order, filters, retries on the injected clock,
/// a commit only when an event is done with.
@DaemonActor
struct NotifyLaneTests {
    /// Entries given by the test; when there are none, waits until cancelled (a stream
    /// nothing is ever yielded to: its iteration ends only with the task).
    final class ScriptedSource: NotifyEventSource {
        var entries: [NotifyEntry]
        private let (never, keep) = AsyncStream.makeStream(of: Int.self)
        init(_ entries: [NotifyEntry]) { self.entries = entries }
        var position: String? { nil }
        func next() async throws -> NotifyEntry {
            guard entries.isEmpty else { return entries.removeFirst() }
            for await _ in never {}
            _ = keep
            throw CancellationError()
        }
    }

    /// Answers each attempt with the next scripted outcome (then `delivered`).
    final class ScriptedDelivery: NotifyDelivery {
        var outcomes: [DeliveryOutcome]
        var attempts: [String] = []
        /// The attempts so far, for a test to wait for.
        let attempted = EventCount()
        var timeout: Duration = NotifyTarget.defaultTimeout
        init(_ outcomes: [DeliveryOutcome]) { self.outcomes = outcomes }
        func deliver(_ event: NotifyEvent) async -> DeliveryOutcome {
            attempts.append(event.rule)
            attempted.increment()
            return outcomes.isEmpty ? .delivered : outcomes.removeFirst()
        }
    }

    static func entry(_ rule: String, _ severity: Severity = .critical) -> NotifyEntry {
        NotifyEntry(
            event: NotifyEvent(
                realtimeMicroseconds: 1, kind: .firing, rule: rule, severity: severity, sensor: "sim:cpu",
                value: 85, threshold: 80, host: "h", message: rule),
            cursor: "c-" + rule)
    }

    @Test func aRetryHoldsBackLaterEventsUntilTheClockHasWaited() async {
        let clock = VirtualClock()
        let source = ScriptedSource([Self.entry("a"), Self.entry("b")])
        let delivery = ScriptedDelivery([.retry("exit status 75")])
        var committed: [String] = []
        let commits = EventCount()
        let log = MemoryLog()
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/bin/true"])), source: source, delivery: delivery, clock: clock, log: log
        ) {
            committed.append($0); commits.increment()
        }
        let task = Task { await lane.run() }
        #expect(await clock.untilSleepers(1))
        #expect(delivery.attempts == ["a"])
        #expect(committed == [])
        clock.advance(by: .milliseconds(999))
        #expect(delivery.attempts == ["a"])
        clock.advance(by: .milliseconds(1))
        #expect(await commits.until(2))
        #expect(committed == ["c-a", "c-b"])
        #expect(delivery.attempts == ["a", "a", "b"])
        task.cancel()
        await task.value
    }

    @Test func filteredAndUnreadableEntriesAreSkippedAndFailuresCommitted() async {
        let clock = VirtualClock()
        let source = ScriptedSource([
            Self.entry("info", .info), NotifyEntry(event: nil, cursor: "c-junk"), Self.entry("broken"),
            Self.entry("ok"),
        ])
        let delivery = ScriptedDelivery([.failed("exit status 3")])
        var committed: [String] = []
        let commits = EventCount()
        let log = MemoryLog()
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/bin/true"]), filter: NotifyFilter(severities: [.critical])),
            source: source, delivery: delivery, clock: clock, log: log
        ) {
            committed.append($0); commits.increment()
        }
        let task = Task { await lane.run() }
        #expect(await commits.until(2))
        #expect(committed == ["c-broken", "c-ok"])
        #expect(delivery.attempts == ["broken", "ok"])
        #expect(
            log.entries.contains {
                $0.level == .error && $0.message.contains("broken firing on h (sim:cpu) not delivered: exit status 3")
            })
        task.cancel()
        await task.value
    }

    /// A program that cannot be started is retried until `giveUp`, then logged as
    /// undeliverable (err, the target and the event) and skipped: the next event goes on.
    @Test func anEventGivenUpIsCommittedAndTheNextDelivered() async {
        let clock = VirtualClock()
        let source = ScriptedSource([Self.entry("a"), Self.entry("b")])
        let gone = DeliveryOutcome.retry("cannot start /gone: No such file or directory")
        let delivery = ScriptedDelivery([gone, gone, gone])
        var committed: [String] = []
        let commits = EventCount()
        let log = MemoryLog()
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/gone"]), giveUp: .seconds(2)), source: source, delivery: delivery,
            clock: clock, log: log
        ) {
            committed.append($0); commits.increment()
        }
        let task = Task { await lane.run() }
        for _ in 1...2 {
            #expect(await clock.untilSleepers(1))
            clock.advance(by: .seconds(1))
        }
        #expect(await commits.until(2))
        #expect(committed == ["c-a", "c-b"])
        #expect(delivery.attempts == ["a", "a", "a", "b"])
        #expect(
            log.lines.filter { $0.contains("undeliverable") } == [
                "<3>exec /gone: a firing on h (sim:cpu) undeliverable: not delivered within 2s of its first try"
                    + " (cannot start /gone: No such file or directory); skipped"
            ])
        task.cancel()
        await task.value
    }
}
