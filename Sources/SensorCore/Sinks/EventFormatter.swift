import SensorRuntime

/// Turns events into the text users read: journal MESSAGE, `simulate` lines and JSON.
///
/// Every sink formats through here, so the journal, stderr and `simulate` say the same.
public enum EventFormatter {
    /// The one-line message, e.g.
    /// `cpu-hot firing: thermal:thermal_zone0 (x86_pkg_temp) 81.5 °C above 80 °C`, or for a
    /// predict rule `cpu-trend firing: sim:cpu (CPU) 78 °C, heading above 90 °C within 10m (93.2 °C)`.
    /// Always one line: the rule's name, the sensor's id, label and unit come from outside
    /// and are shown with ``DisplayText``'s escapes, in the journal's MESSAGE too.
    public static func message(_ e: AlertEvent) -> String {
        var s = "\(e.rule) \(e.kind.rawValue): \(e.sensor.id.rawValue)"
        if !e.sensor.label.isEmpty { s += " (\(e.sensor.label))" }
        let unit = e.sensor.unit
        // A discrete sensor's value is its state bits (SPEC §23): no number for people.
        let value = e.sensor.quantity == .state ? nil : e.value.map { "\(NumberText.display($0)) \(unit)" }
        // The threshold reads as status, history and notify show it (one function for all).
        let threshold = e.usedThreshold.text(unit: unit)
        let what: String
        switch e.condition {
        case .above: what = "above " + threshold
        case .below: what = "below " + threshold
        case .rise: what = "rose by at least " + threshold
        case .fall: what = "fell by at least " + threshold
        case .stale: what = "no reading for " + threshold
        case .alarm:
            what =
                "in hardware alarm" + (e.limit.map { _ in " (\(threshold))" } ?? "")
                + (e.detail.map { ": " + $0 } ?? "")
        case .predict: what = "heading \(e.predict?.direction.rawValue ?? "past") " + threshold
        }
        switch (e.kind, e.condition) {
        case (.resolved, _) where e.sensorGone:
            s += " sensor gone"
        case (.resolved, .stale):
            s += " " + (value.map { "\($0), reading again" } ?? "reading again")
        case (_, .predict):
            // Where it is heading, and the line's value there when it had one.
            let lead = e.kind == .resolved ? "no longer " + what : what
            s += " " + (value.map { "\($0), \(lead)" } ?? lead)
            if let p = e.predicted { s += " (\(NumberText.display(p)) \(unit))" }
        case (.resolved, _):
            s += " " + (value.map { "\($0), no longer \(what)" } ?? "no longer \(what)")
        default:
            s += " " + (value.map { "\($0) \(what)" } ?? what)
        }
        if e.hardwareAlarm { s += " (hardware alarm)" }
        return DisplayText.escaped(s)
    }

    /// The message of a sensor fault or recovery; one line, as an event's.
    public static func message(_ f: SensorFault) -> String {
        var s = "sensor \(f.sensor.id.rawValue)"
        if !f.sensor.label.isEmpty { s += " (\(f.sensor.label))" }
        if let reason = f.reason {
            s += " read failed: \(reason)"
        } else {
            s += " reads again"
        }
        return DisplayText.escaped(s)
    }

    /// The message of a sensor that appeared or went (SPEC §20); one line, as an event's.
    public static func message(_ p: SensorPresence) -> String {
        var s = "sensor \(p.sensor.id.rawValue)"
        if !p.sensor.label.isEmpty { s += " (\(p.sensor.label))" }
        s += p.appeared ? " appeared" : " gone"
        return DisplayText.escaped(s)
    }

    /// One JSON object (SPEC §6), keys in the documented order, no trailing newline; a
    /// predict rule's events have `"predicted"` (SPEC §10), a number or `null`, and the
    /// rule's annotations end it where it has them (`"summary"`, …, SPEC §21).
    public static func json(_ e: AlertEvent) -> String {
        // `time` keeps its `.0` (`12.0`), as SPEC §6 shows it; the other numbers are as
        // every JSON output writes them (`80`, `81.5`).
        var members: [JSONObject.Member] = [
            .init(key: "time", value: .numberText(NumberText.pointed(e.time.seconds))),
            .string("event", e.kind.rawValue), .string("rule", e.rule), .string("sensor", e.sensor.id.rawValue),
            .string("severity", e.severity.rawValue), .number("value", e.value), .number("threshold", e.threshold),
        ]
        if e.predict != nil { members.append(.number("predicted", e.predicted)) }
        if e.isLimitRule { members.append(.optionalString("limit", e.limit)) }
        if e.hardwareAlarm { members.append(.init(key: "alarm", value: .bool(true))) }
        if e.sensorGone { members.append(.string("reason", "sensor gone")) }
        members += annotationMembers(e.annotations)
        return JSONWriter.text(.object(JSONObject(members)))
    }

    /// `"summary": "…"` and the others a rule sets, in their documented order: the members
    /// every JSON form of an event (`simulate --json`, an `exec` target's input) ends with.
    private static func annotationMembers(_ a: RuleAnnotations) -> [JSONObject.Member] {
        a.present.map { .string($0.name, $0.value) }
    }

    /// The readable line `simulate` prints: time, the priority's word as `run` logs the
    /// event (a `resolved` is `notice` whatever the rule's severity), then the message.
    public static func line(_ e: AlertEvent) -> String {
        let t = e.time.seconds
        let stamp = "t=" + (t == t.rounded() ? String(Int64(t)) : String(t)) + "s"
        let word = LogLevel(rawValue: e.priority).map { "\($0)" } ?? e.severity.rawValue
        return "\(stamp) \(word) \(message(e))"
    }

    /// A discrete sensor's asserted states for a person (SPEC §23), in place of a value:
    /// `Presence detected, Power Supply Failure detected`, `no state asserted` when none is.
    /// `sensors`, `status`, `watch` and `top` all write them so.
    public static func states(_ words: [String]) -> String {
        words.isEmpty ? "no state asserted" : words.joined(separator: ", ")
    }

    /// A JSON string literal with the escapes JSON requires (``JSONWriter/string(_:)``).
    public static func jsonString(_ s: String) -> String { JSONWriter.string(s) }
}
