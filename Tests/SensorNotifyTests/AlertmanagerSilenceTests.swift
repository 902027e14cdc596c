@testable import SensorCore
@testable import SensorNotify
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// Silences in Alertmanager (SPEC §21): globs as regular expressions, the API v2 body, the
/// silence created once and expired (DELETE) with ours, the ids kept.
@DaemonActor
struct AlertmanagerSilenceTests {
    /// Records each request as "METHOD URL BODY" and answers with the next scripted result.
    final class Poster: HTTPPoster {
        private let state = Mutex<(requests: [String], answers: [HTTPPostResult])>(([], []))
        init(_ answers: [HTTPPostResult]) { state.withLock { $0.answers = answers } }
        var requests: [String] { state.withLock { $0.requests } }
        func post(url: String, json: String, timeout: Duration) async -> HTTPPostResult {
            await send("POST", url: url, json: json, timeout: timeout)
        }
        func send(_ method: String, url: String, json: String, timeout: Duration) async -> HTTPPostResult {
            state.withLock { s in
                s.requests.append("\(method) \(url) \(json)")
                return s.answers.isEmpty ? .answered(status: 200, body: "") : s.answers.removeFirst()
            }
        }
    }

    nonisolated static let now: UInt64 = 1_764_684_000_000_000

    static let silence = Silence(
        id: "6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f", rule: try! Glob("fan-*"),
        sensor: try! Glob("hwmon:nct6775.656/fan[1-3]"),
        startsMicroseconds: now, endsMicroseconds: now + 7_200_000_000, comment: "fan swap", by: "alice")

    @Test(arguments: [
        ("fan-*", "fan-.*"), ("cpu?", "cpu."), ("hwmon:nct6775.656/fan[1-3]", "hwmon:nct6775\\.656/fan[1-3]"),
        ("[!ab]x", "[^ab]x"), ("a+b(c)|d$", "a\\+b\\(c\\)\\|d\\$"), ("\\*", "\\*"),
    ])
    func globsBecomeRegularExpressionsOfTheSameStrings(glob: String, regex: String) throws {
        #expect(try Glob(glob).regularExpression == regex)
    }

    @Test func theBodyHasTheMatchersAsRegexesTheTimesWhoAndWhy() {
        #expect(
            AlertmanagerSilence.body(Self.silence)
                == "{\"matchers\":[{\"name\":\"alertname\",\"value\":\"fan-.*\",\"isRegex\":true,\"isEqual\":true},"
                + "{\"name\":\"sensor\",\"value\":\"hwmon:nct6775\\\\.656/fan[1-3]\",\"isRegex\":true,\"isEqual\":true}],"
                + "\"startsAt\":\"2025-12-02T14:00:00Z\",\"endsAt\":\"2025-12-02T16:00:00Z\",\"createdBy\":\"alice\",\"comment\":\"fan swap\"}"
        )
        var bare = Self.silence
        bare.comment = ""
        #expect(
            AlertmanagerSilence.body(bare).hasSuffix(
                "\"comment\":\"sensorwatch silence 6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f\"}"))
    }

    @Test func theAnswersIdIsReadAndAnythingElseRefused() {
        #expect(
            AlertmanagerSilence.id(inAnswer: "{\"silenceID\":\"3f5a0c4e-1b2d-4e6f-8a9b-0c1d2e3f4a5b\"}")
                == "3f5a0c4e-1b2d-4e6f-8a9b-0c1d2e3f4a5b")
        #expect(AlertmanagerSilence.id(inAnswer: "{}") == nil)
        #expect(AlertmanagerSilence.id(inAnswer: "{\"silenceID\":\"../../x\"}") == nil)
    }

    @Test func aSilenceIsCreatedOnceAndExpiredWithOurs() async {
        let poster = Poster([.answered(status: 200, body: "{\"silenceID\":\"abc-123\"}")])
        var kept: [[String: String]] = []
        let d = AlertmanagerDelivery(
            baseURL: "http://127.0.0.1:19400", timeout: .seconds(5), poster: poster, clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.now + 1)), log: MemoryLog(), firing: [],
            keep: { _ in },
            keepSilences: { kept.append($0) })
        #expect(await d.silence(Self.silence) == .delivered)
        #expect(await d.silence(Self.silence) == .delivered)
        var expired = Self.silence
        expired.expired = true
        expired.endsMicroseconds = Self.now + 5
        #expect(await d.silence(expired) == .delivered)
        #expect(poster.requests.count == 2)
        #expect(poster.requests[0].hasPrefix("POST http://127.0.0.1:19400/api/v2/silences {\"matchers\":"))
        #expect(poster.requests[1] == "DELETE http://127.0.0.1:19400/api/v2/silence/abc-123 ")
        #expect(kept == [["6f0c1d2e-8a7b-4c3d-9e1f-0a2b3c4d5e6f": "abc-123"], [:]])
    }

    @Test func aFailedCreationIsRetriedAndAnEndedOrUnknownSilenceNeedsNothing() async {
        let poster = Poster([.answered(status: 503, body: "")])
        let d = AlertmanagerDelivery(
            baseURL: "http://127.0.0.1:19400", timeout: .seconds(5), poster: poster, clock: VirtualClock(),
            wallClock: ManualWallClock(WallTime(microseconds: Self.now + 8_000_000_000)), log: MemoryLog(), firing: [],
            keep: { _ in })
        var live = Self.silence
        live.endsMicroseconds = Self.now + 9_000_000_000
        #expect(await d.silence(live) == .retry("HTTP 503"))
        #expect(await d.silence(Self.silence) == .delivered)  // ended before now
        var expired = Self.silence
        expired.id = "never-made"
        expired.expired = true
        #expect(await d.silence(expired) == .delivered)
        #expect(poster.requests.count == 1)
    }
}
