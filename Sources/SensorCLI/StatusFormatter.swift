import SensorCore
import SensorRuntime

/// What `sensorwatch status` prints (SPEC §19): the view for a person, and the one line of
/// a monitoring-plugins check.
enum StatusFormatter {
    /// A status file older than this is a frozen daemon's (`--check` says UNKNOWN).
    static let freshFor = 30.0

    /// Firing alerts first (a silenced one with `silenced until TIME`), then pending ones,
    /// then every sensor with value, limits and health. `localTime` turns Unix seconds into the time a person reads.
    static func person(_ r: StatusReport, now: Double, localTime: (Double) -> String) -> String {
        var out =
            "sensorwatch \(DisplayText.escaped(r.version)) (pid \(r.pid)), running since \(localTime(r.started)), updated \(localTime(r.updated))\n"
        if now - r.updated > freshFor {
            out += "warning: not updated for more than \(Int(freshFor)) s; the daemon may be stopped or frozen\n"
        }
        let units = Dictionary(r.sensors.map { ($0.id, $0.unit) }, uniquingKeysWith: { a, _ in a })
        let firing = r.alerts.filter { $0.state == .firing }.sorted(by: bySeverity)
        let pending = r.alerts.filter { $0.state == .pending }.sorted(by: bySeverity)
        out += "\n"
        if firing.isEmpty {
            out += "No alert fires.\n"
        } else {
            out += "Firing:\n"
            out += table(firing.map { alertRow($0, unit: units[$0.sensor] ?? "", localTime: localTime) })
        }
        if !pending.isEmpty {
            out += "\nPending (waiting for their `for`):\n"
            out += table(pending.map { alertRow($0, unit: units[$0.sensor] ?? "", localTime: localTime) })
        }
        out += "\nSensors (\(r.sensors.count)):\n"
        if r.sensors.isEmpty {
            out += "  none yet\n"
        } else {
            var rows = [["ID", "LABEL", "VALUE", "LIMITS", "HEALTH"]]
            for s in r.sensors {
                rows.append([
                    s.id, s.label.isEmpty ? "-" : s.label,
                    s.state.map(EventFormatter.states) ?? s.value.map { withUnit(NumberText.display($0), s.unit) }
                        ?? "-",
                    limits(s), s.asleep ? "asleep" : s.ok ? "ok" : "failing: " + (s.error ?? "no reading"),
                ])
            }
            out += table(rows)
        }
        return out
    }

    /// The check's output line and exit status (monitoring-plugins: 0 OK, 1 WARNING,
    /// 2 CRITICAL); the line is `SENSORWATCH STATE - text | perfdata`. A silenced alert
    /// (SPEC §21) counts toward neither and is named `(silenced)`.
    static func check(_ r: StatusReport) -> (line: String, code: ExitCode) {
        let firing = r.alerts.filter { $0.state == .firing && $0.silencedUntil == nil }
        let silenced = r.alerts.filter { $0.state == .firing && $0.silencedUntil != nil }
        let critical = firing.filter { $0.severity == .critical }
        let warning = firing.filter { $0.severity == .warning }
        let others = firing.filter { $0.severity != .critical && $0.severity != .warning }
        let failing = r.sensors.filter { !$0.ok }
        let units = Dictionary(r.sensors.map { ($0.id, $0.unit) }, uniquingKeysWith: { a, _ in a })
        let (state, code): (String, ExitCode) =
            !critical.isEmpty
            ? ("CRITICAL", .checkCritical) : !warning.isEmpty ? ("WARNING", .checkWarning) : ("OK", .success)
        var parts: [String] = []
        func describe(_ alerts: [StatusAlert], _ word: String) {
            guard !alerts.isEmpty else { return }
            let listed = alerts.map { a in
                "\(a.rule) on \(a.sensor)"
                    + (a.value.map { " (" + withUnit(NumberText.display($0), units[a.sensor] ?? "") + ")" } ?? "")
                    + (a.silencedUntil == nil ? "" : " (silenced)")
            }
            parts.append("\(alerts.count) \(word): " + listed.joined(separator: ", "))
        }
        describe(critical, "critical")
        describe(warning, "warning")
        describe(others, "notice/info")
        describe(silenced, "silenced")
        if firing.isEmpty && silenced.isEmpty { parts.append("no alert fires") }
        parts.append(
            "\(r.sensors.count) sensor" + (r.sensors.count == 1 ? "" : "s")
                + (failing.isEmpty ? "" : ", \(failing.count) failing"))
        var line = "SENSORWATCH \(state) - " + pluginText(parts.joined(separator: "; "))
        let perf = r.sensors.map(perfdata)
        if !perf.isEmpty { line += " | " + perf.joined(separator: " ") }
        return (line, code)
    }

    /// The UNKNOWN line (exit 3) for a status that cannot be judged.
    static func unknown(_ why: String) -> String { "SENSORWATCH UNKNOWN - " + pluginText(why) }

    /// Text of a check's output line: one line (``DisplayText``) without a `|`, which would
    /// start the performance data there; a `|` in a rule's name or a sensor's id shows as `\x7c`.
    private static func pluginText(_ text: String) -> String {
        DisplayText.escaped(text).split(separator: "|", omittingEmptySubsequences: false).joined(separator: #"\x7c"#)
    }

    /// `'label'=value;warn;crit` (monitoring-plugins): the label the sensor's id, always
    /// quoted (the guidelines require it for a space, `=` or `'`, and allow it always), a `'`
    /// doubled, on one line and without `|` (``pluginText(_:)``); the value `U` when the sensor
    /// has none; warn and crit from its limits where it has them.
    /// No unit of measure: the guidelines know only s, %, B and c, not °C or hPa.
    static func perfdata(_ s: StatusSensor) -> String {
        let label =
            "'" + pluginText(s.id).split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        let value = s.ok ? s.value.map(NumberText.number) ?? "U" : "U"
        var out = label + "=" + value
        let warn = s.limits?.max.map(NumberText.number) ?? "", crit = s.limits?.crit.map(NumberText.number) ?? ""
        if !warn.isEmpty || !crit.isEmpty { out += ";" + warn + ";" + crit }
        return out
    }

    private static func bySeverity(_ a: StatusAlert, _ b: StatusAlert) -> Bool {
        let ra = Severity.allCases.firstIndex(of: a.severity)!, rb = Severity.allCases.firstIndex(of: b.severity)!
        if ra != rb { return ra < rb }
        return a.rule != b.rule ? a.rule < b.rule : a.sensor < b.sensor
    }

    private static func alertRow(_ a: StatusAlert, unit: String, localTime: (Double) -> String) -> [String] {
        [
            a.severity.rawValue.uppercased(), a.rule, a.sensor,
            a.value.map { withUnit(NumberText.display($0), unit) } ?? "no value",
            "threshold " + thresholdText(a, unit: unit),
            "since " + localTime(a.since) + (a.silencedUntil.map { ", silenced until " + localTime($0) } ?? ""),
        ]
    }

    /// The threshold as the rule used it; an older daemon's file has no unit of its own, so
    /// the sensor's stands in.
    private static func thresholdText(_ a: StatusAlert, unit: String) -> String {
        var a = a
        if a.unit.isEmpty { a.unit = unit }
        return a.thresholdText
    }

    /// Every limit the sensor has, as `sensors` shows them (`min 1500 rpm`, `max 80 °C, crit
    /// 100 °C`; clear points left out), or `-`.
    private static func limits(_ s: StatusSensor) -> String {
        guard let l = s.limits else { return "-" }
        let text = SensorLimits(values: l.values).summary(unit: s.unit)
        return text.isEmpty ? "-" : text
    }

    private static func withUnit(_ number: String, _ unit: String) -> String {
        unit.isEmpty ? number : number + " " + unit
    }

    /// Rows as columns two spaces apart, indented by two; the last column is not padded.
    private static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        // Cells hold sensor ids, labels, rule names and errors: each is shown on its line.
        let rows = rows.map { $0.map(DisplayText.escaped) }
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.cells(cell)) } }
        var out = ""
        for row in rows {
            var line = " "
            for (i, cell) in row.enumerated() {
                line += " " + (i == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[i])) + " "
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
