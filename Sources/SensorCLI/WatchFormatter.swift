import SensorCore
import SensorLive
import SensorRuntime

/// What `sensorwatch watch` prints for a person (SPEC §22): one line per changed sensor or
/// alert, `21:03:05 thermal:x86_pkg_temp 55 °C`, an alert's transition in its severity's
/// colour on a terminal. Every text from the stream is escaped (§19); the colour codes are
/// the program's own, added after.
struct WatchFormatter: Sendable {
    /// Whether transitions are coloured (a terminal without `NO_COLOR`).
    var colour: Bool
    /// Unix seconds as `HH:MM:SS` (local time; tests pass their own).
    var clockTime: @Sendable (Double) -> String = TerminalLine.localClockTime

    /// The lines for `message`; `state` is what was known before it (for the units of alerts).
    func lines(_ message: LiveMessage, state: LiveState) -> [String] {
        switch message {
        case .hello, .error:
            return []
        case .snapshot(let s):
            let units = Dictionary(s.sensors.map { ($0.id, $0.unit) }, uniquingKeysWith: { a, _ in a })
            return s.sensors.compactMap { sensor in sensor.time.map { line($0, sensor) } ?? nil }
                + s.alerts.filter { $0.state != .ok }.map { line($0.since, $0, unit: units[$0.sensor] ?? "") }
        case .change(let c):
            var units = state.sensors.mapValues(\.unit)
            for s in c.sensors { units[s.id] = s.unit }
            return c.appeared.map { stamp(c.time) + DisplayText.escaped($0) + " appeared" }
                + c.sensors.map { line(c.time, $0) }
                + c.alerts.map { line(c.time, $0, unit: units[$0.sensor] ?? "") }
                + c.gone.map { stamp(c.time) + DisplayText.escaped($0) + " gone" }
        }
    }

    /// `HH:MM:SS id value unit`, or what stands in for the value.
    func line(_ time: Double, _ s: LiveSensor) -> String {
        let what: String
        if s.asleep {
            what = "asleep"
        } else if !s.ok {
            what = "fault: " + DisplayText.escaped(s.error ?? "no reading")
        } else if let words = s.state {
            what = DisplayText.escaped(EventFormatter.states(words))
        } else if let v = s.value {
            what = Self.withUnit(NumberText.display(v), s.unit)
        } else {
            what = "no value yet"
        }
        return stamp(time) + DisplayText.escaped(s.id) + " " + what
    }

    /// `HH:MM:SS id FIRING rule (severity) value unit`; pending and resolved alike.
    func line(_ time: Double, _ a: LiveAlert, unit: String) -> String {
        let word: String
        let paint: String
        switch a.state {
        case .firing:
            word = "FIRING"
            paint = a.severity == "critical" ? "\u{1B}[1;31m" : a.severity == "warning" ? "\u{1B}[33m" : "\u{1B}[1m"
        case .pending:
            word = "pending"
            paint = "\u{1B}[36m"
        case .ok:
            word = "resolved"
            paint = "\u{1B}[32m"
        }
        var out = stamp(time) + DisplayText.escaped(a.sensor) + " "
        out += colour ? paint + word + "\u{1B}[0m" : word
        out += " " + DisplayText.escaped(a.rule) + " (" + DisplayText.escaped(a.severity) + ")"
        if let v = a.value { out += " " + Self.withUnit(NumberText.display(v), unit) }
        if let until = a.silenced, a.state != .ok { out += ", silenced until " + clockTime(until) }
        return out
    }

    private func stamp(_ time: Double) -> String { clockTime(time) + " " }

    static func withUnit(_ number: String, _ unit: String) -> String {
        unit.isEmpty ? number : number + " " + DisplayText.escaped(unit)
    }
}
