import SensorCore

/// A rule as the plot draws it: the rule and its colour in the legend and the panels.
struct PlotRuleStyle: Sendable {
    var rule: Rule
    var color: String
}
