@testable import SensorConfig
@testable import SensorCore
import SensorTestKit
import Testing

/// The `predict` condition in a configuration (SPEC §3, §10): decoding and its errors.
struct PredictConfigTests {
    private func errors(_ text: String) -> [String] { TemporaryDirectory.configErrors(of: text) }

    private static func rule(_ predict: String, _ extra: String = "") -> String {
        "{ rules: [{ name: \"t\", sensor: \"*\", predict: \(predict)\(extra) }] }"
    }

    @Test(arguments: [
        (rule("3"), "rules[0].predict: expected an object, found a number"),
        (
            rule("{ within: \"10m\", over: \"30m\" }"),
            "rules[0].predict: needs \"above\" or \"below\": the threshold the prediction is compared with"
        ),
        (
            rule("{ above: 90, below: 10, within: \"10m\", over: \"30m\" }"),
            "rules[0].predict: has both \"above\" and \"below\"; a prediction takes exactly one"
        ),
        (rule("{ above: 90, over: \"30m\" }"), "rules[0].predict.within: required key is missing"),
        (rule("{ above: 90, within: \"10m\" }"), "rules[0].predict.over: required key is missing"),
        (rule("{ above: 90, within: \"0s\", over: \"30m\" }"), "rules[0].predict.within: must be longer than 0s"),
        (rule("{ below: 9, within: \"10m\", over: \"0\" }"), "rules[0].predict.over: must be longer than 0s"),
        (
            rule("{ above: 90, within: 600, over: \"30m\" }"),
            "rules[0].predict.within: expected a duration such as \"10s\", found a number"
        ),
        (
            rule("{ above: \"90\", within: \"10m\", over: \"30m\" }"),
            "rules[0].predict.above: unknown limit \"90\" (expected a number, or max, crit, emergency, hot, passive, active or cap)"
        ),
        (
            rule("{ below: NaN, within: \"10m\", over: \"30m\" }"),
            "rules[0].predict.below: expected a finite number, found NaN"
        ),
        (rule("{ above: 90, within: \"10m\", over: \"30m\", by: 3 }"), "rules[0].predict.by: unknown key"),
        (
            rule("{ above: 90, within: \"10m\", over: \"30m\" }", ", hysteresis: -1"),
            "rules[0].hysteresis: must be 0 or more"
        ),
        (
            rule("{ above: 90, within: \"10m\", over: \"30m\" }", ", above: 80"),
            "rules[0]: has more than one condition (above, predict); a rule takes exactly one"
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: String) {
        #expect(errors(text) == ["c.json5: " + expected])
    }

    @Test func aTypoInTheWindowIsTwoErrorsNotASilentRule() {
        #expect(
            errors(Self.rule("{ above: 90, within: \"10m\", ovr: \"30m\" }")) == [
                "c.json5: rules[0].predict.ovr: unknown key (did you mean \"over\"?)",
                "c.json5: rules[0].predict.over: required key is missing",
            ])
    }

    @Test func aMissingWindowIsReportedWithTheMissingThreshold() {
        #expect(
            errors(Self.rule("{}")) == [
                "c.json5: rules[0].predict.within: required key is missing",
                "c.json5: rules[0].predict.over: required key is missing",
                "c.json5: rules[0].predict: needs \"above\" or \"below\": the threshold the prediction is compared with",
            ])
    }

    @Test func decodesWithTheRulesTimingAndHysteresis() throws {
        let files = TemporaryDirectory()
        let path = files.write(
            "c.json5",
            """
            {
              rules: [
                { name: "cpu-trend", sensor: "sim:cpu", predict: { above: 90, within: "10m", over: "30m" },
                  hysteresis: 2.5, for: "1m", clearFor: "2m", repeat: "1h", severity: "critical" },
                { name: "icing", quantity: "temperature", predict: { below: 0.5, within: "1h30m", over: "250ms" } },
              ],
            }
            """)
        let config = try ConfigLoader.load(path: path)
        #expect(
            config.rules == [
                Rule(
                    name: "cpu-trend", selector: SensorSelector(sensor: try Glob("sim:cpu")),
                    condition: .predict(
                        PredictCondition(
                            direction: .above, threshold: 90, hysteresis: 2.5, within: .seconds(600),
                            over: .seconds(1800))),
                    holdFor: .seconds(60), clearFor: .seconds(120), repeatEvery: .seconds(3600), severity: .critical),
                Rule(
                    name: "icing", selector: SensorSelector(quantity: .temperature),
                    condition: .predict(
                        PredictCondition(
                            direction: .below, threshold: 0.5, within: .seconds(5400), over: .milliseconds(250)))),
            ])
        #expect(config.rules[0].condition.threshold == 90)
        #expect(config.rules[0].condition.kind == .predict)
    }
}
