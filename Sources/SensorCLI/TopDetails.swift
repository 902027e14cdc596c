import SensorCore
import SensorLive
import SensorRuntime
import SensorSystemd

/// What Enter shows of a row in `top`: the sensor, its limits and alarms, the rules that
/// watch it, its alerts now, and its last transitions read from the journal.
enum TopDetails {
    /// How many transitions are shown.
    static let transitions = 8

    static func lines(
        _ row: TopRow, rules: [Rule]?, history: Result<[JournalAlertRecord], SystemError>,
        localTime: (Double) -> String
    ) -> [String] {
        let s = row.sensor
        var out = [(s.label.isEmpty ? s.id : s.label + "  " + s.id) + "  (\(s.quantity))", ""]
        out.append(
            "value    " + (s.value.map { WatchFormatter.withUnit(NumberText.display($0), s.unit) } ?? "none")
                + (s.time.map { " at " + localTime($0) } ?? ""))
        if !s.ok { out.append("fault    " + (s.error ?? "no reading")) }
        if s.asleep { out.append("asleep   the device is suspended; it is not read") }
        let limits = SensorLimits.ordered(s.limits.keys).map { "\($0) \(NumberText.number(s.limits[$0]!))" }
        out.append("limits   " + (limits.isEmpty ? "none" : limits.joined(separator: ", ")))
        if !s.alarms.isEmpty { out.append("alarms   " + s.alarms.joined(separator: ", ")) }
        if let rules {
            let watching = rules.filter { r in
                (r.selector.sensor?.matches(s.id) ?? true)
                    && (r.selector.quantity.map { $0.rawValue == s.quantity } ?? true)
            }
            out.append(
                "rules    "
                    + (watching.isEmpty
                        ? "none" : watching.map { "\($0.name) (\($0.severity.rawValue))" }.joined(separator: ", ")))
        }
        for a in row.alerts {
            var line = "alert    \(a.state.rawValue) \(a.rule) (\(a.severity)) since \(localTime(a.since))"
            if let t = a.threshold { line += ", threshold " + NumberText.number(t) }
            if let until = a.silenced { line += ", silenced until " + localTime(until) }
            out.append(line)
        }
        out.append("")
        switch history {
        case .success(let records):
            let last = records.suffix(transitions)
            out.append(last.isEmpty ? "no transitions in the journal" : "last transitions (journal):")
            for r in last {
                out.append("  " + localTime(Double(r.realtimeMicroseconds) / 1e6) + "  " + r.message)
            }
        case .failure(let error):
            out.append("the journal cannot be read: \(error)")
        }
        return out
    }
}
