public import SensorRuntime
import SensorCore

/// Reads and validates a scenario file (SPEC §9), including the CSV files it names.
public enum ScenarioLoader {
    /// Loads `path`; relative CSV paths resolve against its directory.
    ///
    /// Keys: `duration` (required when a sensor is generated, else the last explicit sample
    /// time), `step` (default `"1s"`, > 0), `seed` (default 0), `loop` (default true) and
    /// `sensors`, each with `id`, `quantity`, optional `label`, and exactly one of
    /// `samples`, `csv`, `series` (SPEC §18) or `start` (+ `segments`, `noise`).
    ///
    /// - Throws: ``ConfigErrors`` with every problem found, reported against this file, or
    ///   against a CSV file for problems inside it (`line L, column C`).
    public static func load(path: String) throws(ConfigErrors) -> Scenario {
        try JSON5Document.load(path: path, decode)
    }

    /// Like ``load(path:)`` for the bytes of a scenario file already in memory.
    ///
    /// `path` names the file in errors and is what relative CSV paths resolve against; the
    /// CSV files the scenario names are still read from disk.
    public static func load(contents: [UInt8], path: String) throws(ConfigErrors) -> Scenario {
        try JSON5Document.load(contents: contents, path: path, decode)
    }

    private static func decode(
        _ root: ConfigNode?, _ path: String, _ diagnostics: ConfigDiagnostics
    ) throws(ConfigErrors) -> Scenario {
        guard let root else { throw ConfigErrors(diagnostics.errors) }
        var csvErrors: [ConfigError] = []
        let scenario = decode(root, directory: ConfigPath.directory(of: path), csvErrors: &csvErrors)
        let errors = diagnostics.errors + csvErrors
        guard errors.isEmpty, let scenario else { throw ConfigErrors(errors) }
        return scenario
    }

    /// A scenario from a node of a larger file (a rule test's inline `scenario`, SPEC §18),
    /// problems reported at its key paths; relative CSV paths resolve against `directory`.
    package static func decode(_ root: ConfigNode, directory: String, csvErrors: inout [ConfigError]) -> Scenario? {
        guard let top = root.object(keys: ["duration", "step", "seed", "loop", "sensors"]) else { return nil }
        let durationNode = top["duration"]
        let duration = durationNode.map { $0.duration(positive: true) }
        let step = top["step"].map { $0.duration(positive: true) } ?? .seconds(1)
        var seed: UInt64? = 0
        if let seedNode = top["seed"] {
            seed = seedNode.integer().flatMap { s in
                if s < 0 { seedNode.report("must be 0 or more") }
                return s < 0 ? nil : UInt64(s)
            }
        }
        let loop = top["loop"].map { $0.bool() } ?? true

        var sensors: [ScenarioSensor] = []
        var sensorNodes: [ConfigNode] = []
        var valid = true
        var firstByID: [String: String] = [:]
        if let sensorsNode = top.required("sensors"), let elements = sensorsNode.array() {
            if elements.isEmpty { sensorsNode.report("a scenario needs at least one sensor") }
            for element in elements {
                guard
                    let sensor = ScenarioSensorDecoder.sensor(
                        element, directory: directory, step: step, duration: duration ?? nil, csvErrors: &csvErrors)
                else {
                    valid = false
                    continue
                }
                // By the sensor id it becomes, so `cpu` and `sim:cpu` are one sensor.
                if let first = firstByID[sensor.sensorID.rawValue] {
                    element.diagnostics.report(
                        element.path(of: "id"), "duplicate sensor id \"\(sensor.id)\" (first used by \(first))")
                    valid = false
                } else {
                    firstByID[sensor.sensorID.rawValue] = element.path
                }
                sensors.append(sensor)
                sensorNodes.append(element)
            }
        }

        var lastExplicit: Int64 = 0
        var hasGenerated = false
        for sensor in sensors {
            switch sensor.feed {
            case .samples(let samples): lastExplicit = max(lastExplicit, samples.last?.time.nanoseconds ?? 0)
            case .generated: hasGenerated = true
            }
        }
        if hasGenerated && durationNode == nil {
            root.diagnostics.report(
                root.path(of: "duration"), "required key is missing (a sensor is generated from start and segments)")
            return nil
        }
        if let duration, let duration {
            for (sensor, node) in zip(sensors, sensorNodes) {
                guard case .samples(let samples) = sensor.feed, let last = samples.last,
                    last.time.nanoseconds > duration.nanoseconds
                else { continue }
                let key = ["csv", "series"].first(where: node.value.hasMember) ?? "samples"
                node.diagnostics.report(
                    node.path(of: key),
                    "sample at \(last.time.seconds)s is after the scenario's duration (\(DurationParser.format(duration)))"
                )
                valid = false
            }
        }
        guard valid, let step, let seed, let loop, duration.map({ $0 != nil }) ?? true else { return nil }
        return Scenario(
            duration: (duration ?? nil) ?? .nanoseconds(lastExplicit), step: step, seed: seed, loop: loop,
            sensors: sensors)
    }
}

extension JSONValue {
    /// Whether this is an object with member `key`.
    fileprivate func hasMember(_ key: String) -> Bool {
        if case .object(let members) = self { return members[key] != nil }
        return false
    }
}
