import SensorCore

/// The predicted line of a predict rule over one sensor's run (SPEC §10), for its panel.
enum PlotPredictor {
    /// The rule's prediction at each successful sample of `series`; nil when the rule does
    /// not predict. (Until predict rules exist, no rule does.)
    static func line(_ rule: Rule, color: String, series: PlotSeries) -> PredictedLine? {
        switch rule.condition {
        case .above, .below, .rise, .fall, .stale: return nil
        }
    }
}
