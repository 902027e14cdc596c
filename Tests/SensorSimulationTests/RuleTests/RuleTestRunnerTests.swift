@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// Running rule tests (SPEC §18): through simulate's engine, events one for one, firing sets.
@DaemonActor
struct RuleTestRunnerTests {
    static let configuration = Configuration(
        path: "c.json5", sources: [],
        rules: [
            Rule(
                name: "hot", selector: SensorSelector(sensor: try! Glob("sim:*")), condition: .above(80, hysteresis: 0))
        ])

    private func scenario(_ series: String, duration: Int64 = 9) -> Scenario {
        let values = try! SeriesNotation.expand(series, limit: 100)
        return Scenario(
            duration: .seconds(duration), step: .seconds(1),
            sensors: [
                ScenarioSensor(
                    id: "cpu", quantity: .temperature,
                    feed: .samples(
                        values.enumerated().map {
                            TimedValue(time: .seconds(Double($0)), value: $1)
                        }))
            ])
    }

    private func run(_ series: String, events: [ExpectedEvent]?, firing: [FiringCheck] = []) async -> RuleTestResult {
        await RuleTestRunner.run(
            RuleTest(name: "t", scenario: scenario(series), events: events, firing: firing),
            configuration: Self.configuration)
    }

    private let fired = ExpectedEvent(time: 2, kind: .firing, rule: "hot", sensor: "sim:cpu")
    private let resolved = ExpectedEvent(time: 4, kind: .resolved, rule: "hot", sensor: "sim:cpu")

    @Test func theSameEventsPass() async {
        let result = await run("50 50 90 90 50x5", events: [fired, resolved])
        #expect(result.passed)
        #expect(result.differences == [])
    }

    @Test func givesTheEventsSimulateGivesForTheSameScenario() async {
        let test = RuleTest(name: "t", scenario: scenario("50 90 50 _ 95 50x4"), events: [])
        let simulated = await Simulator.run(scenarios: [test.scenario], rules: Self.configuration.rules)
        #expect(!simulated.isEmpty)
        #expect(RuleTestRunner.differences(test, simulated).count == simulated.count)
    }

    @Test func numbersWithinOneBillionthAreEqual() async {
        var near = fired
        near.value = 90.0000000005
        near.threshold = 80 + 1e-10
        near.time = 2 + 1e-10
        #expect(await run("50 50 90 90 50x5", events: [near, resolved]).passed)
        near.value = 90.000001
        #expect(!(await run("50 50 90 90 50x5", events: [near, resolved]).passed))
    }

    @Test func aDifferentEventShowsExpectedAgainstGotWithTheSameKeys() async {
        var wrong = fired
        wrong.value = 91
        wrong.severity = .critical
        let result = await run("50 50 90 90 50x5", events: [wrong, resolved])
        #expect(
            result.differences == [
                """
                event 1:
                  expected {time: 2, event: "firing", rule: "hot", sensor: "sim:cpu", severity: "critical", value: 91}
                  got      {time: 2, event: "firing", rule: "hot", sensor: "sim:cpu", severity: "warning", value: 90}
                """
            ])
    }

    /// SPEC §21: an expected event may list `summary`, `description`, `runbook`; `null`
    /// expects none, and a difference shows both texts.
    @Test func annotationsAreComparedWhereListed() async {
        var annotated = Self.configuration
        annotated.rules[0].annotations = RuleAnnotations(
            description: "Clean the fan", runbook: "https://wiki.example/hot")
        func run(_ want: ExpectedEvent) async -> RuleTestResult {
            await RuleTestRunner.run(
                RuleTest(name: "t", scenario: scenario("50 50 90 90 50x5"), events: [want, resolved]),
                configuration: annotated)
        }
        var want = fired
        want.annotations = ["description": "Clean the fan", "runbook": "https://wiki.example/hot", "summary": nil]
        #expect(await run(want).passed)
        want.annotations = ["description": "Reseat it", "summary": nil]
        #expect(
            await run(want).differences == [
                """
                event 1:
                  expected {time: 2, event: "firing", rule: "hot", sensor: "sim:cpu", summary: null, description: "Reseat it"}
                  got      {time: 2, event: "firing", rule: "hot", sensor: "sim:cpu", summary: null, description: "Clean the fan"}
                """
            ])
        want.annotations = ["runbook": nil]
        #expect(!(await run(want).passed))
        // A rule without annotations passes `runbook: null`.
        #expect(await self.run("50 50 90 90 50x5", events: [want, resolved]).passed)
    }

    @Test func aMissingEventFails() async {
        let result = await run("50 50 90 90 90x5", events: [fired, resolved])
        #expect(
            result.differences == [
                """
                event 2:
                  expected {time: 4, event: "resolved", rule: "hot", sensor: "sim:cpu"}
                  got      no event (the run gave 1)
                """
            ])
    }

    @Test func anExtraEventFailsAndShowsEveryKey() async {
        let result = await run("50 50 90 90 50x5", events: [fired])
        #expect(
            result.differences == [
                """
                event 2:
                  expected no event (the test lists 1)
                  got      {time: 4, event: "resolved", rule: "hot", sensor: "sim:cpu", severity: "warning", value: 50, threshold: 80}
                """
            ])
    }

    @Test func anEmptyEventListMeansNothingMayHappen() async {
        #expect(await run("50x9", events: []).passed)
        #expect(await run("50 90 50x7", events: []).differences.count == 2)
    }

    @Test func withoutEventsOnlyTheFiringSetsCount() async {
        let result = await run(
            "50 50 90 90 50x5", events: nil,
            firing: [
                FiringCheck(at: .seconds(1), alerts: []),
                FiringCheck(at: .seconds(2), alerts: [AlertKey(rule: "hot", sensor: "sim:cpu")]),
                FiringCheck(at: .seconds(4), alerts: []),
            ])
        #expect(result.passed)
    }

    @Test func aWrongFiringSetShowsBothSets() async {
        let result = await run("50 50 90 90 50x5", events: nil, firing: [FiringCheck(at: .seconds(3), alerts: [])])
        #expect(
            result.differences == [
                """
                firing at 3s:
                  expected []
                  got      [{rule: "hot", sensor: "sim:cpu"}]
                """
            ])
    }

    @Test func pendingAlertsAreNotFiring() async {
        let slow = Configuration(
            path: "c.json5", sources: [],
            rules: [
                Rule(
                    name: "hot", selector: SensorSelector(sensor: try! Glob("sim:*")),
                    condition: .above(80, hysteresis: 0), holdFor: .seconds(5))
            ])
        let test = RuleTest(
            name: "t", scenario: scenario("50 90x8"), events: nil,
            firing: [
                FiringCheck(at: .seconds(5), alerts: []),
                FiringCheck(at: .seconds(6), alerts: [AlertKey(rule: "hot", sensor: "sim:cpu")]),
            ])
        #expect(await RuleTestRunner.run(test, configuration: slow).passed)
    }

    /// `limit` names the limit (SPEC §16, §16b): a rule without one passes `null` only.
    @Test func aLimitIsComparedByItsName() async {
        var withLimit = fired
        withLimit.limit = .some(nil)
        #expect(await run("50 50 90 90 50x5", events: [withLimit, resolved]).passed)
        withLimit.limit = "crit"
        #expect(!(await run("50 50 90 90 50x5", events: [withLimit, resolved]).passed))
    }
}
