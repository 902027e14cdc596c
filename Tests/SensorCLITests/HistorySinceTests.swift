import Testing
@testable import SensorCLI

struct HistorySinceTests {
    static let now = 1_795_558_400.0

    @Test(arguments: [
        ("1h", 3600.0), ("-1h", 3600), ("90m", 5400), ("1h30m", 5400), ("2d", 172_800),
        ("1w", 604_800), ("45s", 45), ("1.5h", 5400), ("now", 0),
    ])
    func durationsCountBackFromNow(text: String, ago: Double) {
        #expect(HistorySince.parse(text, now: Self.now) == Self.now - ago)
    }

    @Test(arguments: ["2026-11-29 10:00:00", "2026-02-28 23:59:59", "2026-07-01 00:00:00"])
    func localTimestampsReadBackAsTheSameLocalTime(text: String) throws {
        let seconds = try #require(HistorySince.parse(text, now: Self.now))
        #expect(HistoryFormatter.localTime(UInt64(seconds * 1e6)) == text)
    }

    @Test func shortFormsFillInZeroes() throws {
        let minutes = try #require(HistorySince.parse("2026-11-29 10:00", now: Self.now))
        #expect(HistoryFormatter.localTime(UInt64(minutes * 1e6)) == "2026-11-29 10:00:00")
        let day = try #require(HistorySince.parse("2026-11-29", now: Self.now))
        #expect(HistoryFormatter.localTime(UInt64(day * 1e6)) == "2026-11-29 00:00:00")
    }

    @Test func todayAndYesterdayAreLocalMidnights() throws {
        let today = try #require(HistorySince.parse("today", now: Self.now))
        let yesterday = try #require(HistorySince.parse("yesterday", now: Self.now))
        let nowText = HistoryFormatter.localTime(UInt64(Self.now * 1e6))
        #expect(HistoryFormatter.localTime(UInt64(today * 1e6)) == nowText.prefix(10) + " 00:00:00")
        #expect(today <= Self.now && Self.now - today < 86400)
        #expect(HistoryFormatter.localTime(UInt64(yesterday * 1e6)).hasSuffix(" 00:00:00"))
        #expect(today - yesterday >= 82800 && today - yesterday <= 90000)
    }

    @Test func epochSecondsAfterAt() {
        #expect(HistorySince.parse("@1764410400", now: Self.now) == 1_764_410_400)
    }

    @Test(arguments: ["", "soon", "1x", "h", "2026-13-01", "2026-11-29 25:00", "2026-11-29T10:00:00", "10:00"])
    func otherTextIsRejected(text: String) {
        #expect(HistorySince.parse(text, now: Self.now) == nil)
    }
}
