import SensorCore
import SensorRuntime

/// The predicted line of a predict rule over one sensor's run (SPEC §10), for its panel.
enum PlotPredictor {
    /// The rule's prediction `p` at each successful sample of `series`, computed by the
    /// rule engine's own ``TrendWindow`` over the same exact sample times, so the line is
    /// the one the rule compared with its threshold; nil at a failed read (not evaluated,
    /// and a gap in the line) and where the window held no line. Nil for other rules.
    static func line(_ rule: Rule, color: String, series: PlotSeries) -> PredictedLine? {
        guard case .predict(let p) = rule.condition else { return nil }
        var window = TrendWindow(width: p.over, horizon: p.within)
        let points = series.attempts.map { attempt -> (time: Double, value: Double?) in
            (attempt.time.seconds, attempt.value.flatMap { window.push($0, at: attempt.time) })
        }
        return PredictedLine(
            rule: rule.name, within: NumberText.duration(seconds: p.within.seconds), color: color, points: points)
    }
}
