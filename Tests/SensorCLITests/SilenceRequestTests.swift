import Testing
@testable import SensorCLI
@testable import SensorCore

/// `silence add`'s arguments: what becomes a silence, what is a usage error (64) and what a
/// bad value (78).
struct SilenceRequestTests {
    static let now: UInt64 = 1_764_684_000_000_000  // 2025-12-02T14:00:00Z

    static func request(_ args: [String]) throws -> Silence {
        let options = try Options(
            args, valued: ["rule", "sensor", "host", "for", "until", "comment", "config"], flags: [])
        return try SilenceRequest.silence(options, now: now, user: "alice", id: "id-1")
    }

    static func problem(_ args: [String]) -> SilenceRequest.Problem? {
        do {
            _ = try request(args)
            return nil
        } catch let p as SilenceRequest.Problem {
            return p
        } catch {
            return nil
        }
    }

    @Test func forAddsTheDurationToNow() throws {
        let s = try Self.request(["--rule", "fan-*", "--for", "1h30m", "--comment", "fan swap"])
        #expect(s.startsMicroseconds == Self.now)
        #expect(s.endsMicroseconds == Self.now + 5_400_000_000)
        #expect(s.rule?.pattern == "fan-*")
        #expect(s.sensor == nil && s.host == nil)
        #expect(s.comment == "fan swap" && s.by == "alice" && s.id == "id-1" && !s.expired)
    }

    @Test func untilTakesRFC3339AndEpochSeconds() throws {
        let a = try Self.request(["--host", "web1", "--until", "2025-12-02T18:00:00Z"])
        #expect(a.endsMicroseconds == 1_764_698_400_000_000)
        let b = try Self.request(["--sensor", "sim:*", "--until", "@1764698400"])
        #expect(b.endsMicroseconds == 1_764_698_400_000_000)
    }

    @Test func noMatcherOrNoEndOrBothEndsAreUsageErrors() {
        guard case .usage(let m)? = Self.problem(["--for", "1h"]) else { Issue.record("no usage error"); return }
        #expect(m.contains("--rule, --sensor, --host"))
        guard case .usage? = Self.problem(["--rule", "x"]) else { Issue.record("no end accepted"); return }
        guard case .usage? = Self.problem(["--rule", "x", "--for", "1h", "--until", "@1864698400"]) else {
            Issue.record("both ends accepted")
            return
        }
    }

    @Test func badGlobsDurationsAndTimesAreValueErrors() {
        let cases: [([String], String)] = [
            (["--rule", "cpu-[", "--for", "1h"], "--rule:"),
            (["--sensor", "", "--for", "1h"], "--sensor: an empty glob"),
            (["--rule", "x", "--for", "soon"], "--for: 'soon'"),
            (["--rule", "x", "--for", "0s"], "not a positive duration"),
            (["--rule", "x", "--until", "tomorrow-ish"], "--until: cannot read"),
            (["--rule", "x", "--until", "2h"], "--until: cannot read"),
            (["--rule", "x", "--until", "2020-01-01T00:00:00Z"], "not in the future"),
            (["--rule", "x", "--until", "@inf"], "too far ahead"),
            (["--rule", "x", "--until", "@1e20"], "too far ahead"),
            (["--rule", "x", "--until", "@nan"], "not in the future"),
        ]
        for (args, expected) in cases {
            guard case .value(let m)? = Self.problem(args) else {
                Issue.record("\(args): not a value error")
                continue
            }
            #expect(m.contains(expected), "\(args): \(m)")
        }
    }
}
