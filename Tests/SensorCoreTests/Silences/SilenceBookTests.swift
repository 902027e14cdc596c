import Testing
@testable import SensorCore

/// Silences folded from their entries: matchers as globs, a matcher left out matches
/// everything, the newest entry of an id wins (an expiry ends it), times half-open.
struct SilenceBookTests {
    static func silence(
        _ id: String, rule: String? = nil, sensor: String? = nil, host: String? = nil, from: UInt64 = 100,
        to: UInt64 = 200, expired: Bool = false
    ) throws -> Silence {
        Silence(
            id: id, rule: try rule.map { try Glob($0) }, sensor: try sensor.map { try Glob($0) },
            host: try host.map { try Glob($0) }, startsMicroseconds: from, endsMicroseconds: to, by: "root",
            expired: expired)
    }

    @Test func matchersAreGlobsAndALeftOutMatcherMatchesEverything() throws {
        let s = try Self.silence("a", rule: "fan-*", host: "web[12]")
        #expect(s.matches(rule: "fan-stopped", sensor: "hwmon:nct6775/fan1", host: "web1"))
        #expect(s.matches(rule: "fan-slow", sensor: "anything", host: "web2"))
        #expect(!s.matches(rule: "cpu-hot", sensor: "anything", host: "web1"))
        #expect(!s.matches(rule: "fan-slow", sensor: "anything", host: "web3"))
        #expect(s.matchers == "rule=fan-* sensor=* host=web[12]")
    }

    @Test func aSilenceHoldsFromItsStartUpToButNotAtItsEnd() throws {
        let s = try Self.silence("a", rule: "*", from: 100, to: 200)
        #expect(!s.isActive(atMicroseconds: 99))
        #expect(s.isActive(atMicroseconds: 100))
        #expect(s.isActive(atMicroseconds: 199))
        #expect(!s.isActive(atMicroseconds: 200))
    }

    @Test func theNewestEntryOfAnIdWinsSoAnExpiryEndsTheSilence() throws {
        var book = SilenceBook([try Self.silence("a", rule: "cpu-*", to: 1000), try Self.silence("b", sensor: "sim:*")])
        #expect(book.active(atMicroseconds: 150).map(\.id) == ["a", "b"])
        book.record(try Self.silence("a", rule: "cpu-*", to: 160, expired: true))
        #expect(book.active(atMicroseconds: 150).map(\.id) == ["a", "b"])
        #expect(book.active(atMicroseconds: 170).map(\.id) == ["b"])
        #expect(book.silences["a"]?.expired == true)
    }

    @Test func theSilencingSilenceIsTheMatchingOneThatEndsLast() throws {
        let book = SilenceBook([
            try Self.silence("short", rule: "cpu-*", to: 150), try Self.silence("long", sensor: "sim:cpu", to: 300),
            try Self.silence("other", rule: "fan-*", to: 900),
        ])
        #expect(book.silencing(rule: "cpu-hot", sensor: "sim:cpu", host: "h", atMicroseconds: 120)?.id == "long")
        #expect(book.silencing(rule: "cpu-hot", sensor: "sim:gpu", host: "h", atMicroseconds: 120)?.id == "short")
        #expect(book.silencing(rule: "cpu-hot", sensor: "sim:gpu", host: "h", atMicroseconds: 160) == nil)
        #expect(book.nextEnd(afterMicroseconds: 120) == 150)
        #expect(book.nextEnd(afterMicroseconds: 950) == nil)
    }

    @Test func newIDsAreDistinctUUIDText() {
        let ids = (0..<100).map { _ in Silence.newID() }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
            #expect(id.allSatisfy { $0 == "-" || $0.isHexDigit })
        }
    }
}
