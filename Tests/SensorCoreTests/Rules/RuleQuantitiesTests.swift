import SensorCore
import Testing

/// The quantities a rule set needs are asked of the rules (issue 35): what the rule loop
/// must observe so that no rule misses a sample.
struct RuleQuantitiesTests {
    static func rule(_ quantity: Quantity?) -> Rule {
        Rule(name: "r", selector: SensorSelector(quantity: quantity), condition: .above(80, hysteresis: 0))
    }

    @Test func theRulesNeedTheQuantitiesTheyName() {
        #expect(
            Rule.quantities(neededBy: [Self.rule(.temperature), Self.rule(.fan), Self.rule(.temperature)])
                == [.temperature, .fan])
    }

    @Test func aRuleThatNamesNoQuantityNeedsThemAll() {
        #expect(Rule.quantities(neededBy: [Self.rule(.humidity), Self.rule(nil)]) == Set(Quantity.allCases))
    }

    @Test func noRulesNeedNothing() {
        #expect(Rule.quantities(neededBy: []).isEmpty)
    }
}
