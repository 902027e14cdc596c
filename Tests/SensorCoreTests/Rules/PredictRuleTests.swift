@testable import SensorCore
@testable import SensorRuntime
import Testing

/// Table tests of `predict` rules (SPEC §10) on one (rule, sensor) alert. Inputs are written
/// `t:v` (a sample) or `t:x` (a failed read); events come back as `kind@t=value~predicted`.
///
/// Most tables use `over: 1s, within: 1s` on samples a second apart: the window then holds
/// the last two samples, and the prediction is `2·v(t) - v(t-1)`, easy to check by hand.
struct PredictRuleTests {
    static func run(_ rule: Rule, _ inputs: String) -> [String] {
        AlertMachineTests.events(rule, inputs).map {
            let v = $0.value.map(NumberText.number) ?? "null"
            let p = $0.predicted.map(NumberText.display) ?? "null"
            return "\($0.kind.rawValue)@\(NumberText.number($0.time.seconds))=\(v)~\(p)"
        }
    }

    static func rule(
        _ direction: PredictCondition.Direction = .above, _ threshold: Double = 90, hysteresis: Double = 0,
        within: Duration = .seconds(1), over: Duration = .seconds(1),
        for hold: Duration = .zero, clearFor: Duration = .zero, repeat every: Duration? = nil
    ) -> Rule {
        let c = PredictCondition(
            direction: direction, threshold: threshold, hysteresis: hysteresis, within: within, over: over)
        return Rule(
            name: "trend", selector: SensorSelector(), condition: .predict(c), holdFor: hold, clearFor: clearFor,
            repeatEvery: every)
    }

    @Test(arguments: [
        // p = 2·91 - 80 = 102 > 90: fires on the trend while the value is still below T.
        ("0:80 1:85.5", ["firing@1=85.5~91"]),
        // p exactly T is not above it.
        ("0:80 1:85", []),
        // One sample is no line, however high: a predict rule says nothing about the value.
        ("0:95", []),
        // Resolves at the first prediction at or below T (here exactly T), with that prediction.
        ("0:80 1:86 2:88 3:95", ["firing@1=86~92", "resolved@2=88~90", "firing@3=95~102"]),
    ])
    func aboveFiresOnThePredictionNotTheValue(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(), inputs) == expected)
    }

    @Test(arguments: [
        // Firing at p = 102; p = 91 keeps it; p = 2·88 - 91 = 85 = T - H resolves.
        ("0:80 1:91 2:91 3:88", ["firing@1=91~102", "resolved@3=88~85"]),
        // p = 85.001 is inside the band (85, 90]: it keeps firing.
        ("0:80 1:91 2:91 3:88.0005", ["firing@1=91~102"]),
        // Once resolved, p = 88 (in the band) does not fire again; p = 91 does.
        ("0:80 1:91 2:91 3:88 4:88 5:89.5", ["firing@1=91~102", "resolved@3=88~85", "firing@5=89.5~91"]),
    ])
    func hysteresisBandOnThePrediction(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(hysteresis: 5), inputs) == expected)
    }

    @Test(arguments: [
        // p = 2·14 - 20 = 8 < 10 fires; p = 2·13 - 14 = 12 = T + H resolves.
        ("0:20 1:14 2:13", ["firing@1=14~8", "resolved@2=13~12"]),
        // p = 11.5 is inside [10, 12): still firing.
        ("0:20 1:14 2:12.75", ["firing@1=14~8"]),
    ])
    func belowMirrorsAbove(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.below, 10, hysteresis: 2), inputs) == expected)
    }

    @Test(arguments: [
        // W = 10 s, H = 10 s: at 10 the window [0, 10] holds (0, 0), so the line is 6 t: 120.
        ("0:0 10:60", ["firing@10=60~120"]),
        // One nanosecond later (0, 0) has left: one sample, no line.
        ("0:0 10.000000001:60", []),
        // Firing from 5 (slope 9: 135). At 10 with (0, 0): slope 6, ȳ = 35, 35 + 6 · 15 = 125,
        // still firing; without it: slope 3, 60 + 3 · 10 = 90, resolved.
        ("0:0 5:45 10:60", ["firing@5=45~135"]),
        ("0:0 5:45 10.000000001:60", ["firing@5=45~135", "resolved@10.000000001=60~90"]),
    ])
    func aSampleAtExactlyTMinusWIsInTheWindow(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above, 100, within: .seconds(10), over: .seconds(10)), inputs) == expected)
    }

    @Test(arguments: [
        // The window [4, 5] holds one sample: no line, so a firing alert resolves, with
        // `predicted` null.
        ("0:80 1:91 5:91", ["firing@1=91~102", "resolved@5=91~null"]),
        // Failed reads are not in the window: at 2 it holds only (2, 91), no line.
        ("0:80 1:x 2:91 3:95", ["firing@3=95~99"]),
    ])
    func noLineIsAFalseSample(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(), inputs) == expected)
    }

    @Test func failedReadsAreNotEvaluated() {
        // A failed read neither resolves nor counts toward `for`; the window spans it.
        let rule = Self.rule(over: .seconds(2), for: .seconds(2))
        #expect(Self.run(rule, "0:80 1:86 2:x 3:92") == ["firing@3=92~95"])
    }

    @Test(arguments: [
        // Pending from 1 (p = 92); fires at 3 >= 1 + 2 with every prediction true.
        ("0:80 1:86 2:90 3:92", ["firing@3=92~94"]),
        // A false prediction during pending (p = 86 at 2) goes back to ok silently.
        ("0:80 1:86 2:86 3:88 4:90 5:92", ["firing@5=92~94"]),
        // No line during pending (window [3, 4] holds only 4) also goes back to ok.
        ("0:80 1:86 2:90 4:95 5:96 6:97 7:98", ["firing@7=98~99"]),
    ])
    func forHoldsThePredictionOnEverySample(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above, 89, for: .seconds(2)), inputs) == expected)
    }

    @Test(arguments: [
        // First false at 2 (p = 86); resolves at 4 >= 2 + 2, every prediction false since.
        ("0:80 1:91 2:88.5 3:88 4:87", ["firing@1=91~102", "resolved@4=87~86"]),
        // A true prediction at 3 keeps it firing and restarts the wait: resolves at 6.
        ("0:80 1:91 2:88.5 3:91 4:89 5:88 6:87", ["firing@1=91~102", "resolved@6=87~86"]),
        // A sample with no line counts as false while clearing.
        ("0:80 1:91 2:88.5 9:88 10:87", ["firing@1=91~102", "resolved@9=88~null"]),
    ])
    func clearForNeedsFalsePredictions(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(clearFor: .seconds(2)), inputs) == expected)
    }

    @Test func repeatCarriesEachSamplesPrediction() {
        let rule = Self.rule(repeat: .seconds(2))
        #expect(
            Self.run(rule, "0:80 1:91 2:92 3:93 4:93.5 5:85") == [
                "firing@1=91~102", "repeat@3=93~94", "resolved@5=85~76.5",
            ])
    }

    @Test func aFittedLineIsNotTheLastTwoSamples() {
        // W = 4 s, H = 5 s. At 3: slope 2, x̄ = 1.5, ȳ = 83, so 83 + 2 · 6.5 = 96. At 4: slope
        // 2.6, x̄ = 2, ȳ = 84.6, so 84.6 + 2.6 · 7 = 102.8 (the last two samples would say 121).
        let rule = Self.rule(.above, 102, within: .seconds(5), over: .seconds(4))
        #expect(Self.run(rule, "0:80 1:81 2:86 3:85 4:91") == ["firing@4=91~102.8"])
    }
}
