import Testing
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorRuntime
/// A reload keeps a predict alert's window while its rule is unchanged, and starts a fresh
/// one when the rule changed (its window would mean something else).
struct PredictReloadTests {
    @Test func reloadKeepsTheWindowOfAnUnchangedRuleOnly() {
        let trend = PredictRuleTests.rule(over: .seconds(2))
        func run(reloadingTo rule: Rule) -> [String] {
            var engine = RuleEngine(rules: [trend])
            var events: [AlertEvent] = []
            engine.process(RuleEngineTests.cycle(0, [(RuleEngineTests.cpu, 80)]), into: &events)
            engine.process(RuleEngineTests.cycle(1, [(RuleEngineTests.cpu, 86)]), into: &events)
            engine.replaceRules([rule], at: .seconds(1.5))
            engine.process(RuleEngineTests.cycle(2, [(RuleEngineTests.cpu, 91)]), into: &events)
            return events.map { "\($0.kind.rawValue)@\(NumberText.number($0.time.seconds))" }
        }
        // Kept: at 2 the window still holds 0 and 1, so the alert keeps firing.
        #expect(run(reloadingTo: trend) == ["firing@1"])
        // Changed (a longer window): the fresh window holds only 2, no line, so it resolves.
        #expect(run(reloadingTo: PredictRuleTests.rule(over: .seconds(3))) == ["firing@1", "resolved@2"])
    }
}
