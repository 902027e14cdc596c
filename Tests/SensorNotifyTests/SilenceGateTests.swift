import Testing
@testable import SensorCore
@testable import SensorNotify
import SensorTestKit

/// An exec target's events under silences (SPEC §21): silenced events are not delivered, a
/// still-firing alert is released once as `firing` when its silence ends or is expired, a
/// `resolved` whose `firing` was never delivered is dropped, and the held-back set survives
/// notify.json.
struct SilenceGateTests {
    static func event(
        _ kind: EventKind, _ rule: String = "fan-stopped", sensor: String = "sim:fan", at: UInt64 = 0
    )
        -> NotifyEvent
    {
        NotifyEvent(
            realtimeMicroseconds: at, kind: kind, rule: rule, severity: .critical, sensor: sensor, value: 0,
            threshold: 300, host: "web1", message: "\(rule) \(kind.rawValue)")
    }

    static let book = SilenceBook([
        Silence(id: "s", rule: try! Glob("fan-*"), startsMicroseconds: 100, endsMicroseconds: 200, by: "root")
    ])

    /// Whether the gate delivered each of `events` (kind, rule, time) under `book`.
    static func admit(
        _ gate: inout SilenceGate, _ events: [(EventKind, String, UInt64)], book: SilenceBook = book
    ) -> [Bool] {
        events.map { kind, rule, now in gate.admit(event(kind, rule), silences: book, nowMicroseconds: now) }
    }

    @Test func aSilencedFiringIsHeldAndReleasedOnceAsFiringWhenTheSilenceEnds() {
        var gate = SilenceGate()
        #expect(Self.admit(&gate, [(.firing, "fan-stopped", 150), (.repeat, "fan-stopped", 160)]) == [false, false])
        #expect(gate.held.map(\.kind) == [.firing])
        #expect(gate.releasable(silences: Self.book, nowMicroseconds: 199).isEmpty)
        #expect(gate.nextRelease(silences: Self.book, nowMicroseconds: 199) == 200)
        let released = gate.releasable(silences: Self.book, nowMicroseconds: 200)
        #expect(released.map(\.kind) == [.firing] && released.first?.rule == "fan-stopped")
        gate.forget(released[0])
        #expect(gate.held.isEmpty)
        #expect(gate.nextRelease(silences: Self.book, nowMicroseconds: 200) == nil)
    }

    @Test func aResolvedWhoseFiringWasNeverDeliveredIsDroppedEvenAfterTheSilence() {
        var during = SilenceGate()
        #expect(
            Self.admit(&during, [(.firing, "fan-stopped", 150), (.resolved, "fan-stopped", 160)]) == [false, false])
        #expect(during.held.isEmpty)
        var after = SilenceGate(held: [Self.event(.firing)])
        #expect(Self.admit(&after, [(.resolved, "fan-stopped", 250)], book: SilenceBook()) == [false])
        #expect(after.held.isEmpty)
    }

    @Test func eventsNoSilenceMatchesAreDeliveredAndADeliveredFiringsResolvedToo() {
        var gate = SilenceGate()
        #expect(
            Self.admit(
                &gate, [(.firing, "cpu-hot", 150), (.firing, "fan-stopped", 90), (.resolved, "fan-stopped", 250)])
                == [true, true, true])
        #expect(gate.held.isEmpty)
    }

    @Test func anExpiredSilenceReleasesAtTheExpiry() {
        var book = Self.book
        var gate = SilenceGate()
        #expect(Self.admit(&gate, [(.firing, "fan-stopped", 150)]) == [false])
        book.record(
            Silence(
                id: "s", rule: try! Glob("fan-*"), startsMicroseconds: 100, endsMicroseconds: 170, by: "bob",
                expired: true))
        #expect(gate.releasable(silences: book, nowMicroseconds: 170).count == 1)
    }

    @Test func heldBackAlertsSurviveNotifyJson() {
        let dir = TemporaryDirectory()
        let store = NotifyStateStore(path: dir.path("notify.json"))
        var state = NotifyStateFile()
        state.setCursor("c1", target: "exec", journal: "local")
        state.setHeld([Self.event(.firing, at: 1_764_684_000_123_456)], target: "exec", journal: "local")
        #expect(throws: Never.self) { try store.save(state) }
        let loaded = store.load()
        #expect(loaded.problem == nil)
        #expect(loaded.state == state)
        #expect(loaded.state.held(target: "exec", journal: "local") == [Self.event(.firing, at: 1_764_684_000_123_456)])
        state.setHeld([], target: "exec", journal: "local")
        #expect(state.targets["exec"]?.held == nil)
    }
}
