import SensorRuntime
import SensorCore

/// Turns one entry of a scenario's `sensors` into a ``ScenarioSensor``.
enum ScenarioSensorDecoder {
    private static let feedKeys = ["samples", "csv", "series", "start", "segments", "noise"]
    private static let segmentKinds = ["ramp", "hold", "step", "sine", "dropout"]

    /// The sensor, or nil after reporting its problems; problems inside a CSV file go to
    /// `csvErrors`, reported against that file. A `series` is sampled every `step` (nil: the
    /// scenario's step is invalid, reported already); `duration` (when known) bounds it.
    static func sensor(
        _ node: ConfigNode, directory: String, step: Duration?, duration: Duration?, csvErrors: inout [ConfigError]
    ) -> ScenarioSensor? {
        guard let object = node.object(keys: ["id", "quantity", "label", "limits", "alarms"] + feedKeys) else {
            return nil
        }
        let idNode = object.required("id")
        var id = idNode?.string()
        if let text = id, let idNode, let problem = idProblem(text) {
            idNode.report(problem)
            id = nil
        }
        let quantity: Quantity? = object.required("quantity")?.choice("quantity")
        let label = object["label"].map { $0.string() } ?? ""
        let limits = object["limits"].map(self.limits) ?? [:]
        let alarms = object["alarms"].map(self.alarms) ?? [:]

        var feeds: [String] = []
        if object.has("samples") { feeds.append("samples") }
        if object.has("csv") { feeds.append("csv") }
        if object.has("series") { feeds.append("series") }
        if object.has("start") || object.has("segments") || object.has("noise") { feeds.append("start") }
        var feed: ScenarioSensor.Feed?
        switch feeds.count {
        case 0:
            node.report("needs samples, csv, series, or start (with segments) to give it values")
        case 1:
            switch feeds[0] {
            case "samples": feed = object["samples"].flatMap(samples)
            case "csv": feed = object["csv"].flatMap { csv($0, directory: directory, errors: &csvErrors) }
            case "series": feed = object["series"].flatMap { series($0, step: step, duration: duration) }
            default: feed = generated(object)
            }
        default:
            node.report("has more than one source of values (\(feeds.joined(separator: ", "))); give exactly one")
        }
        guard let id, let quantity, let label, let feed, let limits, let alarms else { return nil }
        return ScenarioSensor(id: id, quantity: quantity, label: label, feed: feed, limits: limits, alarms: alarms)
    }

    /// `alarms: [[t, "crit"], …]` (SPEC §16b): a time in seconds and an alarm's name
    /// (`alarm`, or a limit's); several at one time add up.
    private static func alarms(_ node: ConfigNode) -> [Timestamp: HardwareAlarms]? {
        guard let elements = node.array() else { return nil }
        var out: [Timestamp: HardwareAlarms] = [:]
        var valid = true
        for element in elements {
            guard let (time, second) = timedPair(element, shape: "[time, \"crit\"]") else {
                valid = false
                continue
            }
            var alarm: HardwareAlarms?
            if let name = second.string() {
                alarm = HardwareAlarms(name: name)
                if alarm == nil {
                    second.report(
                        "unknown alarm \"\(name)\" (expected \(HardwareAlarms.names.joined(separator: ", ")))")
                }
            }
            guard let time, let alarm else {
                valid = false
                continue
            }
            out[.seconds(time), default: []].formUnion(alarm)
        }
        return valid ? out : nil
    }

    /// `limits: { crit: 100, crit_hyst: 95 }`: the names of SPEC §16, numbers in the
    /// sensor's unit, taken as they are (no plausibility rules: a scenario says what it means).
    private static func limits(_ node: ConfigNode) -> [String: Double]? {
        guard case .object(let members) = node.value else {
            node.report("expected an object, found \(node.value.kindDescription)")
            return nil
        }
        var out: [String: Double] = [:]
        var valid = true
        for (name, value) in members.members.map({ ($0.key, $0.value) }) {
            let member = ConfigNode(value: value, path: node.path(of: name), diagnostics: node.diagnostics)
            let base = name.hasSuffix("_hyst") ? String(name.dropLast(5)) : name
            guard SensorLimits.isKnown(base) else {
                let known = (SensorLimits.lowerNames + SensorLimits.upperNames).joined(separator: ", ")
                member.report("unknown limit (expected \(known), or one of them with _hyst)")
                valid = false
                continue
            }
            if let v = member.number() { out[name] = v } else { valid = false }
        }
        return valid ? out : nil
    }

    /// Why `id` cannot name a sensor, or nil. An id without `:` becomes `sim:<id>` and keeps
    /// to a small alphabet; one with `:` (a recording's, SPEC §15) is a sensor id as it
    /// stands, so it needs a source and a name, and may hold what sysfs names hold (`:`
    /// included, as in `iio:iio:device0/temp`) except spaces and control characters.
    private static func idProblem(_ id: String) -> String? {
        if id.isEmpty { return "must not be empty" }
        guard let colon = id.firstIndex(of: ":") else {
            let plain = id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "_" || $0 == "-" || $0 == "." || $0 == "/"
            }
            return plain ? nil : "sensor id \"\(id)\" may use only letters, digits, \"_\", \"-\", \".\" and \"/\""
        }
        if colon == id.startIndex || id.index(after: colon) == id.endIndex {
            return "sensor id \"\(id)\" needs a source and a name around \":\" (as in \"thermal:thermal_zone0\")"
        }
        if id.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "sensor id \"\(id)\" must not hold spaces or control characters"
        }
        return nil
    }

    private static func samples(_ node: ConfigNode) -> ScenarioSensor.Feed? {
        guard let elements = node.array() else { return nil }
        var samples: [TimedValue] = []
        var valid = true
        var previous: Timestamp?
        for element in elements {
            guard let (time, second) = timedPair(element, shape: "[time, value]") else {
                valid = false
                continue
            }
            if let time,
                let problem = TimedValue.orderProblem(
                    .seconds(time), shown: "\(time)", after: previous, what: "sample")
            {
                element.array()?[0].report(problem)
                valid = false
            }
            if let time { previous = max(previous ?? .zero, .seconds(time)) }
            var value: Double?
            if second.value != .null {
                value = second.number()
                if value == nil { valid = false }
            }
            guard let time else {
                valid = false
                continue
            }
            samples.append(TimedValue(time: .seconds(time), value: value))
        }
        return valid ? .samples(samples) : nil
    }

    /// `[time, x]`: the time in seconds (nil when it is not a number or beyond 9e9 s, which
    /// does not fit Int64 nanoseconds; reported) and the second element; nil when `element`
    /// is not such a pair (reported, with `shape` as what was expected).
    private static func timedPair(_ element: ConfigNode, shape: String) -> (time: Double?, second: ConfigNode)? {
        guard case .array(let pair) = element.value, pair.count == 2, let parts = element.array() else {
            element.report("expected \(shape), found \(describe(element.value))")
            return nil
        }
        var time = parts[0].number(atLeastZero: false)
        if let t = time, t > 9e9 {
            parts[0].report("time is too large")
            time = nil
        }
        return (time, parts[1])
    }

    /// The most samples a series may give without a duration to bound it: keeps a typo such
    /// as `1x1000000000` from filling memory.
    private static let seriesCap = 10_000_000

    /// A `series` (SPEC §18) as explicit samples at every `step` from 0; its last sample may
    /// not come after `duration`.
    private static func series(_ node: ConfigNode, step: Duration?, duration: Duration?) -> ScenarioSensor.Feed? {
        guard let text = node.string() else { return nil }
        var limit = seriesCap
        if let duration, let step {
            limit = min(limit, Int(duration.nanoseconds / max(1, step.nanoseconds)) + 1)
        }
        // A well-formed series longer than the duration holds: counted without expanding it,
        // since `axn` is n + 1 samples and the count is what shows a miscount.
        if let duration, let step, limit < seriesCap, let gives = SeriesNotation.count(text), gives > limit {
            node.report(
                "gives \(gives) samples, but 0 to \(DurationParser.format(duration)) at every \(DurationParser.format(step)) holds "
                    + "\(limit) (a term axn is n + 1 samples); its last sample would come after the duration")
            return nil
        }
        do {
            let values = try SeriesNotation.expand(text, limit: limit)
            guard let step else { return nil }
            let nanoseconds = step.nanoseconds
            return .samples(
                values.enumerated().map { i, value in
                    TimedValue(time: Timestamp(nanoseconds: Int64(i) * nanoseconds), value: value)
                })
        } catch {
            node.report(error.message)
            return nil
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        if case .array(let a) = value { return "an array of \(a.count)" }
        return value.kindDescription
    }

    private static func csv(_ node: ConfigNode, directory: String, errors: inout [ConfigError]) -> ScenarioSensor.Feed?
    {
        guard let file = node.namedFile(against: directory) else { return nil }
        let diagnostics = ConfigDiagnostics(file: file.path)
        let samples: [TimedValue]
        do {
            samples = CSVSampleParser.parse(try TextFile.text(file.bytes), diagnostics: diagnostics)
        } catch {
            diagnostics.reportFile("cannot read: " + error.message)
            samples = []
        }
        errors += diagnostics.errors
        return diagnostics.errors.isEmpty ? .samples(samples) : nil
    }

    private static func generated(_ object: ConfigObject) -> ScenarioSensor.Feed? {
        let start = object.required("start")?.number()
        let noise = object["noise"].map { $0.number(atLeastZero: false) } ?? 0
        var segments: [Segment]? = []
        if let elements = object["segments"].map({ $0.array() }) {
            segments = elements.map { $0.map(segment) }.flatMap { list in
                list.contains { $0 == nil } ? nil : list.compactMap { $0 }
            }
        }
        guard let start, let noise, let segments else { return nil }
        return .generated(start: start, segments: segments, noise: noise)
    }

    private static func segment(_ node: ConfigNode) -> Segment? {
        guard case .object(let members) = node.value else {
            node.report("expected a segment object such as {hold: \"1m\"}, found \(node.value.kindDescription)")
            return nil
        }
        let kinds = segmentKinds.filter { members[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            if kinds.isEmpty {
                let keys = members.keys.joined(separator: ", ")
                node.report("unknown segment {\(keys)} (expected ramp, hold, step, sine or dropout)")
            } else {
                node.report("has more than one segment kind (\(kinds.joined(separator: ", "))); give exactly one")
            }
            return nil
        }
        switch kind {
        case "ramp":
            guard let object = node.object(keys: ["ramp", "over"]) else { return nil }
            let to = object.required("ramp")?.number()
            let over = object.required("over")?.duration(positive: true)
            guard let to, let over else { return nil }
            return .ramp(to: to, over: over)
        case "hold":
            guard let object = node.object(keys: ["hold"]) else { return nil }
            return object.required("hold")?.duration(positive: false).map { .hold($0) }
        case "step":
            guard let object = node.object(keys: ["step"]) else { return nil }
            return object.required("step")?.number().map { .step(to: $0) }
        case "sine":
            guard let object = node.object(keys: ["sine", "period", "over"]) else { return nil }
            let amplitude = object.required("sine")?.number()
            let period = object.required("period")?.duration(positive: true)
            let over = object.required("over")?.duration(positive: true)
            guard let amplitude, let period, let over else { return nil }
            return .sine(amplitude: amplitude, period: period, over: over)
        default:
            guard let object = node.object(keys: ["dropout"]) else { return nil }
            return object.required("dropout")?.duration(positive: true).map { .dropout($0) }
        }
    }
}
