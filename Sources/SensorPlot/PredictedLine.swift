/// A predict rule's prediction over a run, for one sensor: at each successful sample's
/// time `t`, the value `p` the rule compares with its threshold (the fitted line read
/// `within` ahead of `t`), or nil where the window held no line. Drawn at `t`, so where it
/// crosses the threshold line is where the condition turns.
struct PredictedLine: Sendable {
    /// The rule's name.
    var rule: String
    /// How far ahead the line is read, as written in the rule (`10m`).
    var within: String
    /// The rule's colour.
    var color: String
    /// (time in seconds, p) in time order.
    var points: [(time: Double, value: Double?)]

    /// Runs of successive points that have a value (a point without one breaks the line).
    var connectedRuns: [[(time: Double, value: Double)]] { LineRuns.split(points) }

    /// The label beside it: `cpu-trend predicted (+10m)`.
    var label: String { "\(rule) predicted (+\(within))" }
}
