import Testing
@testable import SensorCore
@testable import SensorRuntime
/// After a restart a predict alert kept as firing has an empty window (the state file keeps
/// no samples): it neither resolves for want of a line nor fires a second time.
struct PredictRestoreTests {
    static func run(_ samples: [(Double, Double)]) -> [String] {
        var engine = RuleEngine(rules: [PredictRuleTests.rule()])
        engine.restoreFiring([AlertKey(rule: "trend", sensor: RuleEngineTests.cpu.id)])
        var events: [AlertEvent] = []
        for (t, v) in samples {
            engine.process(RuleEngineTests.cycle(t, [(RuleEngineTests.cpu, v)]), into: &events)
        }
        return events.map { "\($0.kind.rawValue)@\(NumberText.number($0.time.seconds))" }
    }

    @Test func aRestoredAlertWaitsForALineThenGoesOnAsUsual() {
        // 0: no line yet, still firing. 1: p = 92, still firing (no second firing).
        // 2: p = 2·86 - 86 = 86, at or below 90: resolved.
        #expect(Self.run([(0, 80), (1, 86), (2, 86), (3, 80)]) == ["resolved@2"])
        // After its first line the usual rule holds again: a later sample without one
        // (window [9, 10] holds only 10) resolves it.
        #expect(Self.run([(0, 80), (1, 86), (10, 95)]) == ["resolved@10"])
    }
}
