import SensorCore
import SensorLive

/// One sensor's row of `top`, made from what the stream says of it.
struct TopRow: Sendable, Hashable {
    var id: String
    var label: String
    /// The chip or source it is grouped under: the id up to its last `/` (`hwmon:coretemp-isa-0000`),
    /// else its source (`thermal`).
    var group: String
    var sensor: LiveSensor
    var state: TopRowState
    /// Its pending and firing alerts, worst first.
    var alerts: [LiveAlert]

    /// The group of a sensor id.
    static func group(of id: String) -> String {
        if let slash = id.lastIndex(of: "/") { return String(id[..<slash]) }
        if let colon = id.firstIndex(of: ":") { return String(id[..<colon]) }
        return id
    }

    /// Every sensor of `state` as a row, sorted by group then id; with `filter` (a glob,
    /// `*text*` when it has no wildcard) only those whose id or label matches, with
    /// `alertsOnly` only those that fire or pend.
    static func rows(_ state: LiveState, filter: String = "", alertsOnly: Bool = false) -> [TopRow] {
        var byID: [String: [LiveAlert]] = [:]
        for a in state.alerts.values { byID[a.sensor, default: []].append(a) }
        let glob = filterGlob(filter)
        var rows: [TopRow] = []
        for s in state.sensors.values {
            if let glob, !glob.matches(s.id), !glob.matches(s.label) { continue }
            let alerts = (byID[s.id] ?? []).sorted(by: worse)
            let row = TopRow(
                id: s.id, label: s.label, group: group(of: s.id), sensor: s, state: rowState(s, alerts), alerts: alerts)
            if alertsOnly && !row.state.isAlert { continue }
            rows.append(row)
        }
        return rows.sorted { ($0.group, $0.id) < ($1.group, $1.id) }
    }

    /// The glob a filter text means: itself when it has a wildcard, else `*text*`; nil for none
    /// (or one that is not a glob: then nothing is filtered, and the prompt says so).
    static func filterGlob(_ text: String) -> Glob? {
        guard !text.isEmpty else { return nil }
        let pattern = text.contains(where: { "*?[".contains($0) }) ? text : "*" + text + "*"
        return try? Glob(pattern)
    }

    private static func rowState(_ s: LiveSensor, _ alerts: [LiveAlert]) -> TopRowState {
        if let a = alerts.first {
            if a.state == .firing {
                if let until = a.silenced { return .silenced(rule: a.rule, until: until) }
                return .firing(rule: a.rule, severity: a.severity)
            }
            return .pending(rule: a.rule)
        }
        if s.asleep { return .asleep }
        if !s.ok { return .fault(s.error ?? "no reading") }
        return s.value == nil && s.state == nil ? .waiting : .ok
    }

    /// Firing before pending, unsilenced before silenced, then by severity.
    private static func worse(_ a: LiveAlert, _ b: LiveAlert) -> Bool {
        func rank(_ x: LiveAlert) -> Int {
            (x.state == .firing ? 0 : 20) + (x.silenced == nil ? 0 : 10)
                + (Severity(rawValue: x.severity).flatMap { Severity.allCases.firstIndex(of: $0) } ?? 9)
        }
        return (rank(a), a.rule) < (rank(b), b.rule)
    }
}
