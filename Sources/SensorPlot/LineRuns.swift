/// Splits a line's points at the ones without a value, so that a missing reading (or a
/// prediction without a line) shows as a gap rather than being bridged.
enum LineRuns {
    /// The runs of successive points that have a value, in order.
    static func split<S: Sequence>(_ points: S) -> [[(time: Double, value: Double)]]
    where S.Element == (time: Double, value: Double?) {
        var runs: [[(time: Double, value: Double)]] = []
        var run: [(time: Double, value: Double)] = []
        for p in points {
            if let v = p.value {
                run.append((p.time, v))
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
