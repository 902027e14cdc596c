@testable import SensorConfig
@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Testing

/// A lane of an exec target under a silence, in virtual time: the silenced firing is not
/// run (its cursor is committed), and it is run once, as firing, when the injected clock
/// reaches the silence's end; a silence's entry read by the lane counts at once.
@DaemonActor
struct SilencedLaneTests {
    typealias Source = NotifyLaneTests.ScriptedSource
    typealias Delivery = NotifyLaneTests.ScriptedDelivery

    nonisolated static let base: UInt64 = 1_764_684_000_000_000

    static func silenceEntry(endsAfter seconds: UInt64, expired: Bool = false) -> NotifyEntry {
        NotifyEntry(
            event: nil, cursor: "c-silence",
            silence: Silence(
                id: "s", rule: try! Glob("fan-*"), startsMicroseconds: base,
                endsMicroseconds: base + seconds * 1_000_000,
                by: "root", expired: expired))
    }

    @Test func aSilencedFiringIsRunOnceAsFiringWhenTheSilenceEnds() async {
        let clock = VirtualClock()
        // The time of day moves with the virtual clock: each advance moves it first.
        let wall = ManualWallClock(WallTime(microseconds: Self.base))
        let source = Source([
            Self.silenceEntry(endsAfter: 60), NotifyLaneTests.entry("fan-stopped"), NotifyLaneTests.entry("cpu-hot"),
        ])
        let delivery = Delivery([])
        var committed: [String] = []
        let commits = EventCount()
        var kept: [[NotifyEvent]] = []
        let keeps = EventCount()
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/bin/true"])), source: source, delivery: delivery, clock: clock,
            log: MemoryLog(), gate: SilenceGate(),
            keepHeld: {
                kept.append($0); keeps.increment()
            }, wallClock: wall
        ) {
            committed.append($0); commits.increment()
        }
        let task = Task { await lane.run() }
        #expect(await commits.until(3))
        #expect(committed == ["c-silence", "c-fan-stopped", "c-cpu-hot"])
        #expect(delivery.attempts == ["cpu-hot"])
        #expect(kept.map { $0.map(\.rule) } == [["fan-stopped"]])
        #expect(await clock.untilSleepers(1))
        wall.advance(by: .seconds(59))
        clock.advance(by: .seconds(59))
        #expect(delivery.attempts == ["cpu-hot"])
        wall.advance(by: .seconds(1))
        clock.advance(by: .seconds(1))
        #expect(await delivery.attempted.until(2))
        #expect(delivery.attempts == ["cpu-hot", "fan-stopped"])
        #expect(await keeps.until(2))
        #expect(kept.last == [])
        wall.advance(by: .seconds(600))
        clock.advance(by: .seconds(600))
        #expect(delivery.attempts == ["cpu-hot", "fan-stopped"])
        task.cancel()
        await task.value
    }

    @Test func anExpiryEntryReleasesTheHeldAlertAtOnce() async {
        let clock = VirtualClock()
        let wall = ManualWallClock(WallTime(microseconds: Self.base + 5_000_000))
        let source = Source([
            Self.silenceEntry(endsAfter: 3600), NotifyLaneTests.entry("fan-stopped"),
            Self.silenceEntry(endsAfter: 5, expired: true),
        ])
        let delivery = Delivery([])
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/bin/true"])), source: source, delivery: delivery, clock: clock,
            log: MemoryLog(), gate: SilenceGate(), wallClock: wall
        ) { _ in }
        let task = Task { await lane.run() }
        #expect(await delivery.attempted.until(1))
        #expect(delivery.attempts == ["fan-stopped"])
        task.cancel()
        await task.value
    }

    @Test func aHeldAlertKeptFromTheLastRunIsReleasedWhenItsSilenceIsGone() async {
        var held = NotifyLaneTests.entry("fan-stopped").event!
        held.kind = .firing
        let delivery = Delivery([])
        let lane = NotifyLane(
            target: NotifyTarget(kind: .exec(["/bin/true"])), source: Source([]), delivery: delivery,
            clock: VirtualClock(),
            log: MemoryLog(), gate: SilenceGate(held: [held]),
            wallClock: ManualWallClock(WallTime(microseconds: Self.base))
        ) { _ in }
        let task = Task { await lane.run() }
        #expect(await delivery.attempted.until(1))
        #expect(delivery.attempts == ["fan-stopped"])
        task.cancel()
        await task.value
    }
}
