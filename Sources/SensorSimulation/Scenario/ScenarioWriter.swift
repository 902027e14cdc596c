public import SensorConfig
import SensorCore
import SensorRuntime

/// Writes a scenario as the file ``ScenarioLoader`` reads (SPEC §9), in plain JSON, which
/// is also JSON5: what `record` leaves behind (SPEC §15).
///
/// Reading the text back gives the same scenario: times and durations are exact to the
/// nanosecond, values print in the shortest form that reads back as the same `Double`.
/// One sensor a line group, its samples ten to a line, so a long recording stays readable.
public enum ScenarioWriter {
    /// The scenario as JSON text, ending with a newline.
    ///
    /// `duration` is left out when it is 0 (a recording of one poll): the loader requires
    /// a positive one, and without it takes the last sample's time, which is 0.
    public static func json(_ scenario: Scenario) -> String {
        var out = "{\n"
        if scenario.duration > .zero { out += "  \"duration\": \(string(scenario.duration)),\n" }
        out += "  \"step\": \(string(scenario.step)),\n"
        if scenario.seed != 0 { out += "  \"seed\": \(scenario.seed),\n" }
        out += "  \"loop\": \(scenario.loop),\n"
        out += "  \"sensors\": [\n"
        out += scenario.sensors.map(sensor).joined(separator: ",\n")
        out += "\n  ]\n}\n"
        return out
    }

    private static func sensor(_ sensor: ScenarioSensor) -> String {
        var s = "    {\"id\": " + EventFormatter.jsonString(sensor.id)
        s += ", \"quantity\": \"" + sensor.quantity.rawValue + "\""
        if !sensor.label.isEmpty { s += ", \"label\": " + EventFormatter.jsonString(sensor.label) }
        if !sensor.limits.isEmpty {
            s +=
                ", \"limits\": {"
                + SensorLimits.ordered(sensor.limits.keys)
                .map { EventFormatter.jsonString($0) + ": " + NumberText.number(sensor.limits[$0]!) }
                .joined(separator: ", ") + "}"
        }
        if !sensor.alarms.isEmpty {
            s +=
                ", \"alarms\": ["
                + sensor.alarms.keys.sorted().flatMap { t in
                    sensor.alarms[t]!.list.map { "[" + seconds(t) + ", " + EventFormatter.jsonString($0) + "]" }
                }.joined(separator: ", ") + "]"
        }
        switch sensor.feed {
        case .samples(let samples):
            let pairs = samples.map {
                "[" + seconds($0.time) + ", " + ($0.value.map(NumberText.number) ?? "null") + "]"
            }
            let lines = stride(from: 0, to: pairs.count, by: 10).map {
                pairs[$0..<min($0 + 10, pairs.count)].joined(separator: ", ")
            }
            s +=
                ",\n     \"samples\": ["
                + (lines.isEmpty ? "" : "\n       " + lines.joined(separator: ",\n       ") + "\n     ") + "]}"
        case .generated(let start, let segments, let noise):
            s += ", \"start\": " + NumberText.number(start)
            if noise != 0 { s += ", \"noise\": " + NumberText.number(noise) }
            s += ", \"segments\": [" + segments.map(segment).joined(separator: ", ") + "]}"
        }
        return s
    }

    private static func segment(_ segment: Segment) -> String {
        switch segment {
        case .ramp(let to, let over): return "{\"ramp\": \(NumberText.number(to)), \"over\": \(string(over))}"
        case .hold(let d): return "{\"hold\": \(string(d))}"
        case .step(let to): return "{\"step\": \(NumberText.number(to))}"
        case .sine(let amplitude, let period, let over):
            return
                "{\"sine\": \(NumberText.number(amplitude)), \"period\": \(string(period)), \"over\": \(string(over))}"
        case .dropout(let d): return "{\"dropout\": \(string(d))}"
        }
    }

    /// A duration as the loader reads it (`"1h30m"`, `"250ms"`).
    private static func string(_ duration: Duration) -> String {
        "\"" + DurationParser.format(duration) + "\""
    }

    /// A sample time in seconds, exact to the nanosecond (`12`, `0.25`, `3.000000001`).
    private static func seconds(_ time: Timestamp) -> String {
        DurationParser.decimalSeconds(time.nanoseconds)
    }
}
