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
        var members: [JSONObject.Member] = []
        if scenario.duration > .zero { members.append(duration("duration", scenario.duration)) }
        members.append(duration("step", scenario.step))
        if scenario.seed != 0 { members.append(.init(key: "seed", value: .numberText(String(scenario.seed)))) }
        members.append(.init(key: "loop", value: .bool(scenario.loop)))
        members.append(.init(key: "sensors", value: .array(scenario.sensors.map(sensor))))
        return JSONWriter.text(
            .object(JSONObject(members)), layout: .lines(depth: 2, spaced: true, packed: "samples", perLine: 10))
            + "\n"
    }

    private static func sensor(_ sensor: ScenarioSensor) -> JSONValue {
        var members: [JSONObject.Member] = [.string("id", sensor.id), .string("quantity", sensor.quantity.rawValue)]
        if !sensor.label.isEmpty { members.append(.string("label", sensor.label)) }
        if !sensor.limits.isEmpty {
            let limits = SensorLimits.ordered(sensor.limits.keys).map {
                JSONObject.Member.number($0, sensor.limits[$0])
            }
            members.append(.init(key: "limits", value: .object(JSONObject(limits))))
        }
        if !sensor.alarms.isEmpty {
            let alarms = sensor.alarms.keys.sorted().flatMap { t in
                sensor.alarms[t]!.list.map { JSONValue.array([seconds(t), .string($0)]) }
            }
            members.append(.init(key: "alarms", value: .array(alarms)))
        }
        switch sensor.feed {
        case .samples(let samples):
            let pairs = samples.map { JSONValue.array([seconds($0.time), $0.value.map(JSONValue.number) ?? .null]) }
            members.append(.init(key: "samples", value: .array(pairs)))
        case .generated(let start, let segments, let noise):
            members.append(.number("start", start))
            if noise != 0 { members.append(.number("noise", noise)) }
            members.append(.init(key: "segments", value: .array(segments.map(segment))))
        }
        return .object(JSONObject(members))
    }

    private static func segment(_ segment: Segment) -> JSONValue {
        let members: [JSONObject.Member]
        switch segment {
        case .ramp(let to, let over): members = [.number("ramp", to), duration("over", over)]
        case .hold(let d): members = [duration("hold", d)]
        case .step(let to): members = [.number("step", to)]
        case .sine(let amplitude, let period, let over):
            members = [.number("sine", amplitude), duration("period", period), duration("over", over)]
        case .dropout(let d): members = [duration("dropout", d)]
        }
        return .object(JSONObject(members))
    }

    /// A duration as the loader reads it (`"1h30m"`, `"250ms"`).
    private static func duration(_ key: String, _ duration: Duration) -> JSONObject.Member {
        .string(key, DurationParser.format(duration))
    }

    /// A sample time in seconds, exact to the nanosecond (`12`, `0.25`, `3.000000001`), which
    /// a `Double` need not be.
    private static func seconds(_ time: Timestamp) -> JSONValue {
        .numberText(DurationParser.decimalSeconds(time.nanoseconds))
    }
}
