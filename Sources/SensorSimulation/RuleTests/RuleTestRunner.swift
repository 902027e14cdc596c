public import SensorRuntime
public import SensorCore
public import SensorConfig

/// Runs rule tests (SPEC §18) through `simulate`'s engine, ``Simulator``, exactly as
/// `simulate --config C --scenario S` would, and compares what they give with what they
/// expect.
@DaemonActor
public enum RuleTestRunner {
    /// How far apart two numbers may be and still count as equal: the file's decimal text
    /// and the engine's arithmetic round differently in the last bits.
    public static let tolerance = 1e-9

    /// Runs `test` against the configuration's rules and derived sensors.
    public static func run(_ test: RuleTest, configuration: Configuration) async -> RuleTestResult {
        let events = await Simulator.run(
            scenarios: [test.scenario], rules: configuration.rules, derived: configuration.derived)
        return RuleTestResult(name: test.name, differences: differences(test, events))
    }

    /// Every difference between what `test` expects and `events` (in SPEC §6 order).
    public static func differences(_ test: RuleTest, _ events: [AlertEvent]) -> [String] {
        var out: [String] = []
        if let expected = test.events {
            for i in 0..<max(expected.count, events.count) {
                let want = i < expected.count ? expected[i] : nil
                let got = i < events.count ? events[i] : nil
                let place = "event \(i + 1)"
                switch (want, got) {
                case let (want?, got?) where !matches(want, got):
                    out.append("\(place):\n  expected \(render(want))\n  got      \(render(got, like: want))")
                case let (want?, nil):
                    out.append(
                        "\(place):\n  expected \(render(want))\n  got      no event (the run gave \(events.count))")
                case let (nil, got?):
                    out.append(
                        "\(place):\n  expected no event (the test lists \(expected.count))\n  got      \(render(got, like: nil))"
                    )
                default: break
                }
            }
        }
        for check in test.firing {
            let firing = firingSet(events, at: check.at)
            guard Set(check.alerts) != firing else { continue }
            let at = DurationParser.format(.nanoseconds(check.at.nanoseconds))
            out.append("firing at \(at):\n  expected \(render(Set(check.alerts)))\n  got      \(render(firing))")
        }
        return out
    }

    /// The (rule, sensor) alerts firing after every event at times up to and including `time`.
    public static func firingSet(_ events: [AlertEvent], at time: Timestamp) -> Set<AlertKey> {
        var firing: Set<AlertKey> = []
        for event in events where event.time <= time {
            let key = AlertKey(rule: event.rule, sensor: event.sensor.id)
            switch event.kind {
            case .firing: firing.insert(key)
            case .resolved: firing.remove(key)
            case .repeat: break
            }
        }
        return firing
    }

    private static func matches(_ want: ExpectedEvent, _ got: AlertEvent) -> Bool {
        func same(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case let (a?, b?): return abs(a - b) <= tolerance
            default: return false
            }
        }
        return same(want.time, got.time.seconds) && want.kind == got.kind && want.rule == got.rule
            && want.sensor == got.sensor.id.rawValue && (want.severity.map { $0 == got.severity } ?? true)
            && (want.value.map { same($0, got.value) } ?? true)
            && (want.threshold.map { same($0, got.threshold) } ?? true)
            && (want.predicted.map { same($0, got.predicted) } ?? true)
            && (want.limit.map { $0 == got.limit } ?? true)
            && want.annotations.allSatisfy { got.annotations.value($0.key) == $0.value }
    }

    /// An expected event as JSON5 a test file can take back.
    private static func render(_ e: ExpectedEvent) -> String {
        var parts = fixed(time: e.time, kind: e.kind, rule: e.rule, sensor: e.sensor)
        if let s = e.severity { parts.append("severity: \"\(s.rawValue)\"") }
        if let v = e.value { parts.append("value: " + number(v)) }
        if let t = e.threshold { parts.append("threshold: " + number(t)) }
        if let p = e.predicted { parts.append("predicted: " + number(p)) }
        if let l = e.limit { parts.append("limit: " + (l.map(JSONWriter.string) ?? "null")) }
        parts += annotations { e.annotations[$0] }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// An event that came, with the keys `like` lists (every key when nil), so the two
    /// lines line up key for key.
    private static func render(_ e: AlertEvent, like want: ExpectedEvent?) -> String {
        var parts = fixed(time: e.time.seconds, kind: e.kind, rule: e.rule, sensor: e.sensor.id.rawValue)
        if want == nil || want?.severity != nil { parts.append("severity: \"\(e.severity.rawValue)\"") }
        if want == nil || want?.value != nil { parts.append("value: " + number(e.value)) }
        if want == nil || want?.threshold != nil { parts.append("threshold: " + number(e.threshold)) }
        if (want == nil && e.predict != nil) || want?.predicted != nil {
            parts.append("predicted: " + number(e.predicted))
        }
        if (want == nil && e.isLimitRule) || want?.limit != nil {
            parts.append("limit: " + (e.limit.map(JSONWriter.string) ?? "null"))
        }
        parts += annotations { name in
            let value = e.annotations.value(name)
            return (want == nil && value != nil) || want?.annotations[name] != nil ? .some(value) : nil
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// `summary: "…"` and the other annotation keys `listed` gives (a text or `null`), in
    /// their documented order; a key it gives nil for is left out.
    private static func annotations(_ listed: (String) -> String??) -> [String] {
        RuleAnnotations.names.compactMap { name in
            listed(name).map { name + ": " + ($0.map(JSONWriter.string) ?? "null") }
        }
    }

    private static func fixed(time: Double, kind: EventKind, rule: String, sensor: String) -> [String] {
        [
            "time: " + NumberText.number(time), "event: \"\(kind.rawValue)\"",
            "rule: " + JSONWriter.string(rule), "sensor: " + JSONWriter.string(sensor),
        ]
    }

    private static func number(_ v: Double?) -> String { v.map(NumberText.number) ?? "null" }

    private static func render(_ alerts: Set<AlertKey>) -> String {
        let listed = alerts.sorted().map {
            "{rule: " + JSONWriter.string($0.rule) + ", sensor: "
                + JSONWriter.string($0.sensor.rawValue) + "}"
        }
        return "[" + listed.joined(separator: ", ") + "]"
    }
}
