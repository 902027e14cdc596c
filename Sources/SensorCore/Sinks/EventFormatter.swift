import SensorRuntime

/// Turns events into `simulate`'s lines and JSON.
///
/// An event's message is its own (``AlertEvent/message``, ``SensorFault/message``,
/// ``SensorPresence/message``): the journal, stderr, `notify` and `simulate` all take it
/// from the event, so they say the same.
public enum EventFormatter {
    /// One JSON object (SPEC §6), keys in the documented order, no trailing newline; a
    /// predict rule's events have `"predicted"` (SPEC §10), a number or `null`, and the
    /// rule's annotations end it where it has them (`"summary"`, …, SPEC §21).
    public static func json(_ e: AlertEvent) -> String {
        // `time` keeps its `.0` (`12.0`), as SPEC §6 shows it; the other numbers are as
        // every JSON output writes them (`80`, `81.5`).
        var o = JSONWriter.ObjectWriter()
        o.numberText("time", NumberText.pointed(e.time.seconds))
        o.string("event", e.kind.rawValue)
        o.string("rule", e.rule)
        o.string("sensor", e.sensor.id.rawValue)
        o.string("severity", e.severity.rawValue)
        o.number("value", e.value)
        o.number("threshold", e.threshold)
        if e.predict != nil { o.number("predicted", e.predicted) }
        if e.isLimitRule { o.string("limit", e.limit) }
        if e.hardwareAlarm { o.bool("alarm", true) }
        if e.sensorGone { o.string("reason", "sensor gone") }
        for a in e.annotations.present { o.string(a.name, a.value) }
        return o.text
    }

    /// The readable line `simulate` prints: time, the priority's word as `run` logs the
    /// event (a `resolved` is `notice` whatever the rule's severity), then the message.
    public static func line(_ e: AlertEvent) -> String {
        let stamp = "t=" + NumberText.number(e.time.seconds) + "s"
        let word = LogLevel(rawValue: e.priority).map { "\($0)" } ?? e.severity.rawValue
        return "\(stamp) \(word) \(e.message)"
    }

    /// A discrete sensor's asserted states for a person (SPEC §23), in place of a value:
    /// `Presence detected, Power Supply Failure detected`, `no state asserted` when none is.
    /// `sensors`, `status`, `watch` and `top` all write them so.
    public static func states(_ words: [String]) -> String {
        words.isEmpty ? "no state asserted" : words.joined(separator: ", ")
    }
}
