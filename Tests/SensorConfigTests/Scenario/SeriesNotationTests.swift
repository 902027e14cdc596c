@testable import SensorConfig
@testable import SensorRuntime
import SensorTestKit
import Testing

/// promtool's expanding notation in a scenario sensor's `series` (SPEC §18).
struct SeriesNotationTests {
    private func expand(_ text: String) throws -> [Double?] { try SeriesNotation.expand(text, limit: 1000) }

    @Test(arguments: [
        ("5", [5.0] as [Double?]),
        ("1 2 3", [1, 2, 3]),
        ("1+2x3", [1, 3, 5, 7]),
        ("10-2x2", [10, 8, 6]),
        ("7x2", [7, 7, 7]),
        ("7x0", [7]),
        ("_", [nil]),
        ("_x3", [nil, nil, nil]),
        ("50x3 95 50x7", [50, 50, 50, 50, 95, 50, 50, 50, 50, 50, 50, 50, 50]),
        ("-2+4x2", [-2, 2, 6]),
        ("-2-1x1", [-2, -3]),
        ("1.5+0.25x2", [1.5, 1.75, 2]),
        ("1e3+1e-1x1", [1000, 1000.1]),
        ("  1\t2  ", [1, 2]),
    ])
    func expandsEachForm(_ text: String, _ values: [Double?]) throws {
        #expect(try expand(text) == values)
    }

    @Test(arguments: [
        ("", "empty series (expected terms such as \"50x3 95 50x7\")"),
        ("1 x3", "term 2 \"x3\": expected a value before \"x\""),
        ("1x", "term 1 \"1x\": expected a whole count after \"x\", as in \"1x4\""),
        ("1x-2", "term 1 \"1x-2\": expected a whole count after \"x\", as in \"1x4\""),
        ("1x2.5", "term 1 \"1x2.5\": expected a whole count after \"x\", as in \"1x4\""),
        ("abc", "term 1 \"abc\": \"abc\" is not a number"),
        ("NaN", "term 1 \"NaN\": \"NaN\" is not a number"),
        ("inf", "term 1 \"inf\": \"inf\" is not a number"),
        ("1+2", "term 1 \"1+2\": an increment needs a count, as in \"1+2x4\""),
        ("5+x2", "term 1 \"5+x2\": \"\" is not a number"),
        ("_+1x2", "term 1 \"_+1x2\": \"_\" is not a number"),
        ("1 stale", "term 2 \"stale\": \"stale\" is not a number"),
    ])
    func rejectsMalformedTerms(_ text: String, _ message: String) {
        #expect(throws: SyntaxError(message: message)) { try expand(text) }
    }

    @Test func refusesMoreSamplesThanTheLimitBeforeExpandingThem() {
        #expect(throws: SyntaxError(message: "term 2 \"1x1000000000\": gives more than 10 samples in all")) {
            try SeriesNotation.expand("1 1x1000000000", limit: 10)
        }
    }

    @Test func countsWithoutExpanding() {
        #expect(SeriesNotation.count("50x3 95 50x7 _ _x2") == 16)
        #expect(SeriesNotation.count("1x1000000000000") == 1_000_000_000_001)
        #expect(SeriesNotation.count("1x") == nil)
    }

    @Test func aScenarioSeriesIsSampledAtEveryStepFromZero() throws {
        let files = TemporaryDirectory()
        files.write(
            "s.json5",
            "{ duration: \"40s\", step: \"10s\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"50 60 _ 70x1\" }] }"
        )
        let scenario = try ScenarioLoader.load(path: files.path("s.json5"))
        #expect(
            scenario.sensors[0].feed
                == .samples([
                    TimedValue(time: .seconds(0), value: 50), TimedValue(time: .seconds(10), value: 60),
                    TimedValue(time: .seconds(20), value: nil), TimedValue(time: .seconds(30), value: 70),
                    TimedValue(time: .seconds(40), value: 70),
                ]))
    }

    @Test func withoutADurationTheLastSampleEndsTheScenario() throws {
        let files = TemporaryDirectory()
        files.write(
            "s.json5", "{ step: \"2s\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"1x5\" }] }")
        #expect(try ScenarioLoader.load(path: files.path("s.json5")).duration == .seconds(10))
    }

    @Test(arguments: [
        (
            "{ duration: \"20s\", step: \"10s\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"1x3\" }] }",
            "s.json5: sensors[0].series: gives 4 samples, but 0 to 20s at every 10s holds 3 (a term axn is n + 1 samples); its last sample would come after the duration"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", series: 5 }] }",
            "s.json5: sensors[0].series: expected a string, found a number"
        ),
        (
            "{ sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"1 2x\" }] }",
            "s.json5: sensors[0].series: term 2 \"2x\": expected a whole count after \"x\", as in \"2x4\""
        ),
        (
            "{ duration: \"1m\", sensors: [{ id: \"cpu\", quantity: \"temperature\", series: \"1\", start: 3 }] }",
            "s.json5: sensors[0]: has more than one source of values (series, start); give exactly one"
        ),
    ])
    func aBadSeriesIsAConfigurationErrorAtItsKey(_ text: String, _ line: String) {
        #expect(TemporaryDirectory.scenarioErrors(of: text) == [line])
    }
}
