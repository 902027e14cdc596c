@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// Alertmanager delivery in virtual time (SPEC §17): labels and annotations as Prometheus
/// sends them, endsAt 4 min ahead while firing and at the resolve time after, the minute's
/// re-send, the firing set kept.
@DaemonActor
struct AlertmanagerDeliveryTests {
    /// Records each POST and answers with the next scripted result (then 200).
    final class RecordingPoster: HTTPPoster {
        private let state = Mutex<(posts: [String], answers: [HTTPPostResult])>(([], []))
        init(_ answers: [HTTPPostResult] = []) { state.withLock { $0.answers = answers } }
        var posts: [String] { state.withLock { $0.posts } }
        /// The POSTs so far, for a test to wait for.
        let posted = EventCount()
        func post(url: String, json: String, timeout: Duration) async -> HTTPPostResult {
            defer { posted.increment() }
            return state.withLock { s in
                s.posts.append(url + " " + json)
                return s.answers.isEmpty ? .answered(status: 200, body: "") : s.answers.removeFirst()
            }
        }
    }

    nonisolated static let start: UInt64 = 1_764_628_330_000_000

    static func event(_ kind: EventKind, at offset: UInt64) -> NotifyEvent {
        NotifyEvent(
            realtimeMicroseconds: start + offset, kind: kind, rule: "cpu-hot", severity: .warning, sensor: "sim:cpu",
            value: kind == .resolved ? 70 : 85, threshold: 80, host: "rack1", message: "cpu-hot \(kind.rawValue)")
    }

    @Test func firingThenResolvedPostTheSameAlertWithItsEnds() async {
        let poster = RecordingPoster()
        var kept: [[AlertmanagerAlert]] = []
        let d = AlertmanagerDelivery(
            baseURL: "http://127.0.0.1:9093", timeout: .seconds(5), poster: poster, clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.start + 1_000_000)), log: MemoryLog(), firing: []
        ) { kept.append($0) }
        #expect(await d.deliver(Self.event(.firing, at: 0)) == .delivered)
        #expect(await d.deliver(Self.event(.resolved, at: 30_000_000)) == .delivered)
        #expect(
            poster.posts == [
                """
                http://127.0.0.1:9093/api/v2/alerts [{"labels":{"alertname":"cpu-hot","sensor":"sim:cpu","severity":"warning",\
                "host":"rack1"},"annotations":{"summary":"cpu-hot firing","value":"85","threshold":"80"},\
                "startsAt":"2025-12-01T22:32:10Z","endsAt":"2025-12-01T22:36:11Z"}]
                """,
                """
                http://127.0.0.1:9093/api/v2/alerts [{"labels":{"alertname":"cpu-hot","sensor":"sim:cpu","severity":"warning",\
                "host":"rack1"},"annotations":{"summary":"cpu-hot firing","value":"85","threshold":"80"},\
                "startsAt":"2025-12-01T22:32:10Z","endsAt":"2025-12-01T22:32:40Z"}]
                """,
            ])
        #expect(kept.map(\.count) == [1, 0])
    }

    @Test func statusesMapToDeliveredRetryAndFailed() {
        #expect(HTTPPostResult.answered(status: 200, body: "").outcome == .delivered)
        #expect(HTTPPostResult.answered(status: 503, body: "busy").outcome == .retry("HTTP 503: busy"))
        #expect(HTTPPostResult.noAnswer("Connection refused").outcome == .retry("Connection refused"))
        #expect(HTTPPostResult.answered(status: 400, body: "bad alert").outcome == .failed("HTTP 400: bad alert"))
    }

    @Test func aRefusedPostKeepsTheFiringSetUnchanged() async {
        let poster = RecordingPoster([.noAnswer("Connection refused")])
        var kept: [[AlertmanagerAlert]] = []
        let d = AlertmanagerDelivery(
            baseURL: "http://h", timeout: .seconds(5), poster: poster, clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.start)), log: MemoryLog(), firing: []
        ) { kept.append($0) }
        #expect(await d.deliver(Self.event(.firing, at: 0)) == .retry("Connection refused"))
        #expect(kept.isEmpty)
        #expect(d.firingAlerts.isEmpty)
    }

    @Test func firingAlertsAreSentAgainEveryMinuteOnTheClockKeptOnesToo() async {
        let clock = VirtualClock()
        let poster = RecordingPoster()
        let kept = AlertmanagerAlert(Self.event(.firing, at: 0), startsAt: Self.start)
        let d = AlertmanagerDelivery(
            baseURL: "http://h", timeout: .seconds(5), poster: poster, clock: clock,
            wallClock: ManualWallClock(WallTime(microseconds: Self.start)), log: MemoryLog(), firing: [kept]
        ) { _ in }
        let task = Task { await d.maintain() }
        #expect(await clock.untilSleepers(1))
        #expect(poster.posts.isEmpty)
        clock.advance(by: .seconds(60))
        #expect(await poster.posted.until(1))
        #expect(poster.posts[0].contains("\"endsAt\":\"2025-12-01T22:36:10Z\""))
        #expect(await clock.untilSleepers(1))
        clock.advance(by: .seconds(60))
        #expect(await poster.posted.until(2))
        task.cancel()
        await task.value
    }

    /// The firing set holds at most its limit: the oldest alert is dropped with a warning
    /// and the set kept for `notify.json` stays bounded; a kept set too large is cut at the start.
    @Test func theFiringSetDropsItsOldestAlertBeyondItsLimit() async {
        #expect(AlertmanagerDelivery<VirtualClock>.firingLimit == 10_000)
        func firing(_ sensor: String, at offset: UInt64) -> NotifyEvent {
            NotifyEvent(
                realtimeMicroseconds: Self.start + offset, kind: .firing, rule: "cpu-hot", severity: .warning,
                sensor: sensor, value: 85, threshold: 80, host: "rack1", message: "hot")
        }
        var kept: [AlertmanagerAlert] = []
        let log = MemoryLog()
        let d = AlertmanagerDelivery(
            baseURL: "http://127.0.0.1:9093", timeout: .seconds(5), poster: RecordingPoster(), clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.start)), log: log, firing: [], limit: 3
        ) { kept = $0 }
        for (i, sensor) in ["sim:a", "sim:b", "sim:c"].enumerated() {
            #expect(await d.deliver(firing(sensor, at: UInt64(i) * 1_000_000)) == .delivered)
        }
        // A repeat of one already firing takes no room.
        #expect(await d.deliver(firing("sim:b", at: 5_000_000)) == .delivered)
        #expect(log.entries.isEmpty)
        #expect(await d.deliver(firing("sim:d", at: 9_000_000)) == .delivered)
        #expect(kept.map(\.sensor) == ["sim:b", "sim:c", "sim:d"])
        #expect(
            log.lines == [
                "<4>http://127.0.0.1:9093/api/v2/alerts: 3 alerts firing, the most a target keeps; dropped the oldest,"
                    + " cpu-hot on rack1 (sim:a), firing since 2025-12-01T22:32:10Z: it is no longer re-sent"
            ])
        let restarted = MemoryLog()
        let again = AlertmanagerDelivery(
            baseURL: "http://127.0.0.1:9093", timeout: .seconds(5), poster: RecordingPoster(), clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.start)), log: restarted, firing: kept, limit: 2
        ) { _ in }
        #expect(again.firingAlerts.map(\.sensor) == ["sim:c", "sim:d"])
        #expect(restarted.lines.count == 1)
    }
}
