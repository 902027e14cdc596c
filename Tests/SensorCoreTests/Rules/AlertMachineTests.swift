@testable import SensorCore
@testable import SensorRuntime
import Testing

/// Table tests of SPEC §5 on one (rule, sensor) alert. Inputs are written `t:v` (a sample),
/// `t:x` (a failed read) or `t:tick`; events come back as `kind@t=value`.
struct AlertMachineTests {
    static let sensor = SensorInfo(id: "sim:s", label: "", quantity: .temperature)

    static func run(_ rule: Rule, _ inputs: String) -> [String] {
        events(rule, inputs).map {
            "\($0.kind.rawValue)@\(NumberText.number($0.time.seconds))=\($0.value.map(NumberText.number) ?? "null")"
        }
    }

    /// The events of `inputs` (written as for ``run(_:_:)``) on one fresh alert of `rule`.
    static func events(_ rule: Rule, _ inputs: String) -> [AlertEvent] {
        var state = AlertState(condition: rule.condition, start: .zero)
        var events: [AlertEvent] = []
        for item in inputs.split(separator: " ") {
            let parts = item.split(separator: ":")
            let t = Timestamp.seconds(Double(parts[0])!)
            // A tick and a failed read are both "no value" to the machine.
            let value = parts[1] == "tick" || parts[1] == "x" ? nil : Double(parts[1])!
            AlertMachine.step(
                &state, time: t, value: value, alarms: [], parameters: AlertMachine.Parameters(rule), rule: rule,
                index: 0, sensor: sensor, into: &events)
        }
        return events
    }

    static func rule(
        _ c: Condition, for hold: Duration = .zero, clearFor: Duration = .zero, repeat every: Duration? = nil
    ) -> Rule {
        Rule(name: "r", selector: SensorSelector(), condition: c, holdFor: hold, clearFor: clearFor, repeatEvery: every)
    }

    @Test(arguments: [
        // `above` is strict: a value equal to the threshold is not above it.
        ("0:80 1:80.001 2:80", ["firing@1=80.001", "resolved@2=80"]),
        // Without hysteresis the first value at or below the threshold resolves.
        ("0:81 1:79.5", ["firing@0=81", "resolved@1=79.5"]),
    ])
    func aboveIsStrictAndResolvesAtOrBelow(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above(80, hysteresis: 0)), inputs) == expected)
    }

    @Test(arguments: [
        // Inside the band (75, 80] the alert keeps firing; exactly T - H resolves.
        ("0:81 1:76 2:75.001 3:75", ["firing@0=81", "resolved@3=75"]),
        // Once resolved, re-firing needs v > T again, not just v > T - H.
        ("0:81 1:75 2:79 3:80 4:80.5", ["firing@0=81", "resolved@1=75", "firing@4=80.5"]),
    ])
    func aboveHysteresisBand(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above(80, hysteresis: 5)), inputs) == expected)
    }

    @Test(arguments: [
        ("0:25 1:24.9 2:27.9 3:28", ["firing@1=24.9", "resolved@3=28"]),
        ("0:20 1:26 2:24.99", ["firing@0=20"]),
    ])
    func belowMirrorsAbove(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.below(25, hysteresis: 3)), inputs) == expected)
    }

    @Test(arguments: [
        // `for` ends exactly on a sample: fires at that sample.
        ("0:81 5:82 10:83", ["firing@10=83"]),
        // A false sample during pending goes back to ok silently, and the wait restarts.
        ("0:81 5:74 10:83 15:84 20:85", ["firing@20=85"]),
        // Samples are not ticks: no sample at t0 + D, so it fires at the next one.
        ("0:81 9.999:82 12:83", ["firing@12=83"]),
        // Hysteresis keeps the condition true during pending.
        ("0:81 5:77 10:76", ["firing@10=76"]),
    ])
    func forHoldsOnEverySampleUntilTheEnd(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above(80, hysteresis: 5), for: .seconds(10)), inputs) == expected)
    }

    @Test(arguments: [
        // Resolves at the first sample at t >= t1 + D, t1 the first false sample.
        ("0:90 1:70 5:70 11:70 12:70", ["firing@0=90", "resolved@11=70"]),
        // A true sample in between keeps it firing and restarts the wait.
        ("0:90 1:70 5:85 6:70 15:70 16:70", ["firing@0=90", "resolved@16=70"]),
    ])
    func clearForWaitsForFalseSamples(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.above(80, hysteresis: 0), clearFor: .seconds(10)), inputs) == expected)
    }

    @Test func repeatResendsWhileFiring() {
        let rule = Self.rule(.above(80, hysteresis: 0), repeat: .seconds(10))
        #expect(
            Self.run(rule, "0:90 5:91 10:92 15:93 20:94 25:70 35:90") == [
                "firing@0=90", "repeat@10=92", "repeat@20=94", "resolved@25=70", "firing@35=90",
            ])
    }

    @Test(arguments: [
        // A sample exactly at t - W is inside the window: 60 - 50 >= 10.
        ("0:50 30:55 60:60", ["firing@60=60"]),
        // One nanosecond later it has left: min is 55, 61 - 55 < 10, so it resolves.
        ("0:50 30:55 60:60 60.000000001:61", ["firing@60=60", "resolved@60.000000001=61"]),
        // Failed reads are not in the window and do not evaluate.
        ("0:50 10:x 20:59.9 30:x", []),
    ])
    func riseUsesTheMinimumOfTheClosedWindow(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.rise(by: 10, within: .seconds(60))), inputs) == expected)
    }

    @Test func fallUsesTheMaximumOfTheWindow() {
        let rule = Self.rule(.fall(by: 3, within: .seconds(10)))
        #expect(Self.run(rule, "0:1013 5:1011 10:1010 11:1010 16:1010") == ["firing@10=1010", "resolved@11=1010"])
    }

    @Test(arguments: [
        // Never read: counts from the start of the run; ticks alone make it fire.
        ("0:tick 10:tick 20:tick 29.9:tick 30:tick 40:tick", ["firing@30=null"]),
        // Failed reads are read attempts: checked there too. A success resolves.
        ("0:20 10:x 29:x 30:x 35:21", ["firing@30=null", "resolved@35=21"]),
        // A success just before the limit restarts the count.
        ("0:20 29:21 30:tick 58:tick 59:tick", ["firing@59=null"]),
    ])
    func staleCountsFromTheLastSuccess(inputs: String, expected: [String]) {
        #expect(Self.run(Self.rule(.stale(.seconds(30))), inputs) == expected)
    }

    @Test func faultsAndTicksDoNotEvaluateValueConditions() {
        let rule = Self.rule(.above(80, hysteresis: 0), for: .seconds(5))
        #expect(Self.run(rule, "0:81 3:x 4:tick 5:82 6:x 7:79") == ["firing@5=82", "resolved@7=79"])
    }

    @Test func staleWithForNeedsEveryCheckTrue() {
        let rule = Self.rule(.stale(.seconds(10)), for: .seconds(5))
        #expect(Self.run(rule, "0:1 10:tick 12:tick 14:3 20:tick 24:tick 29:tick") == ["firing@29=null"])
    }
}
