public import SensorCore
public import SensorRuntime

/// Builds the journal fields (`NAME=value` strings) of every entry sensorwatch sends.
///
/// Pure: no I/O, so the exact fields are golden-tested. The sink hands the result to
/// `sd_journal_sendv` unchanged. Field names follow SPEC §7; values may hold any text,
/// newlines included (`sd_journal_sendv` sends those in its binary-safe form).
public enum JournalFields {
    /// The `SYSLOG_IDENTIFIER` of every entry, which `journalctl -t sensorwatch` selects.
    public static let identifier = "sensorwatch"

    /// The fields of one alert event: `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `MESSAGE_ID`,
    /// `ALERT_*` and `SENSOR_*`.
    ///
    /// No `CODE_*` fields: every event leaves through the sink's one line, so they would name
    /// the sink, not what made the event (`ALERT_RULE` says that).
    ///
    /// `SENSOR_LABEL` is left out when the sensor has no label, `SENSOR_VALUE` when the
    /// event has no value (a stale alert that fires), and `ALERT_PREDICTED` (a predict rule's
    /// prediction, SPEC §10) when there is none: other rules, or a window without a line;
    /// `ALERT_LIMIT` names the limit a threshold came from (SPEC §16), absent otherwise,
    /// `ALERT_WITHIN` the window of a `rise`/`fall` rule or a prediction (seconds), and
    /// `ALERT_ALARM=1` says the chip's latched alarm of that limit made it (SPEC §16b),
    /// `ALERT_REASON=gone` that a `resolved` came because its sensor went (SPEC §20);
    /// `ALERT_SUMMARY`, `ALERT_DESCRIPTION` and `ALERT_RUNBOOK` are the rule's annotations
    /// (SPEC §21), each absent when the rule has none.
    public static func fields(for event: AlertEvent) -> [String] {
        var f = header(
            message: event.message, priority: event.level.priority,
            id: JournalMessageID(event.kind))
        f.append("ALERT_RULE=" + event.rule)
        f.append("ALERT_STATE=" + event.kind.rawValue)
        f.append("ALERT_SEVERITY=" + event.severity.rawValue)
        f.append("ALERT_CONDITION=" + event.condition.rawValue)
        f.append("ALERT_THRESHOLD=" + NumberText.number(event.threshold))
        if let limit = event.limit { f.append("ALERT_LIMIT=" + limit) }
        if let within = event.within { f.append("ALERT_WITHIN=" + NumberText.number(within)) }
        if event.hardwareAlarm { f.append("ALERT_ALARM=1") }
        if event.sensorGone { f.append("ALERT_REASON=gone") }
        if let predicted = event.predicted {
            f.append("ALERT_PREDICTED=" + NumberText.number(predicted))
        }
        for (name, value) in event.annotations.present { f.append("ALERT_\(name.uppercased())=" + value) }
        f += sensorFields(event.sensor)
        if let value = event.value {
            f.append("SENSOR_VALUE=" + NumberText.number(value))
        }
        return f
    }

    /// The fields of a sensor fault (priority 4, warning) or recovery (priority 5, notice):
    /// `SENSOR_STATE` is `failing` or `reading`, `SENSOR_FAULT` the reason of a failure.
    public static func fields(for fault: SensorFault) -> [String] {
        var f = header(
            message: fault.message, priority: fault.level.priority, id: .sensorFault)
        f += sensorFields(fault.sensor)
        f.append("SENSOR_STATE=" + (fault.reason == nil ? "reading" : "failing"))
        if let reason = fault.reason {
            f.append("SENSOR_FAULT=" + reason)
        }
        return f
    }

    /// The fields of a sensor that appeared or went (SPEC §20), priority 5 (notice):
    /// `SENSOR_STATE` is `appeared` or `gone`.
    public static func fields(for presence: SensorPresence) -> [String] {
        var f = header(
            message: presence.message, priority: PriorityLine.level(of: presence).priority,
            id: presence.appeared ? .sensorAppeared : .sensorGone)
        f += sensorFields(presence.sensor)
        f.append("SENSOR_STATE=" + (presence.appeared ? "appeared" : "gone"))
        return f
    }

    /// The fields of a plain daemon message (reload errors, state-file problems), with the
    /// `CODE_*` fields of the code that logged it.
    ///
    /// - Parameter extra: further `(NAME, value)` pairs; names must be journal field names
    ///   (`[A-Z0-9_]`, not starting with `_`), which the caller's constants are.
    public static func fields(
        message: String, priority: Int, id: JournalMessageID?, extra: [(String, String)] = [],
        at location: CodeLocation
    ) -> [String] {
        var f = header(message: message, priority: priority, id: id)
        for (name, value) in extra { f.append(name + "=" + value) }
        f += codeFields(location)
        return f
    }

    private static func header(message: String, priority: Int, id: JournalMessageID?) -> [String] {
        var f = ["MESSAGE=" + message, "PRIORITY=\(priority)", "SYSLOG_IDENTIFIER=" + identifier]
        if let id { f.append("MESSAGE_ID=" + id.rawValue) }
        return f
    }

    private static func sensorFields(_ s: SensorInfo) -> [String] {
        var f = ["SENSOR_ID=" + s.id.rawValue]
        if !s.label.isEmpty { f.append("SENSOR_LABEL=" + s.label) }
        f.append("SENSOR_QUANTITY=" + s.quantity.rawValue)
        f.append("SENSOR_UNIT=" + s.unit)
        return f
    }

    private static func codeFields(_ l: CodeLocation) -> [String] {
        ["CODE_FILE=" + l.file, "CODE_LINE=\(l.line)", "CODE_FUNC=" + l.function]
    }
}

extension JournalFields {
    /// The fields of a silence entry (SPEC §21): `MESSAGE` (priority 5, notice),
    /// `MESSAGE_ID`, `SILENCE_ID`, `SILENCE_STATE` (`active`, or `expired` for the entry that
    /// ended it), the matchers given (`SILENCE_RULE`, `SILENCE_SENSOR`, `SILENCE_HOST`; one
    /// left out matches everything), `SILENCE_STARTS` and `SILENCE_ENDS` (RFC 3339, UTC),
    /// `SILENCE_COMMENT` and `SILENCE_BY`.
    public static func fields(for silence: Silence) -> [String] {
        var f = header(message: message(silence), priority: LogLevel.notice.priority, id: .silence)
        f.append("SILENCE_ID=" + silence.id)
        f.append("SILENCE_STATE=" + (silence.expired ? "expired" : "active"))
        if let rule = silence.rule { f.append("SILENCE_RULE=" + rule.pattern) }
        if let sensor = silence.sensor { f.append("SILENCE_SENSOR=" + sensor.pattern) }
        if let host = silence.host { f.append("SILENCE_HOST=" + host.pattern) }
        f.append("SILENCE_STARTS=" + RFC3339.format(microseconds: silence.startsMicroseconds))
        f.append("SILENCE_ENDS=" + RFC3339.format(microseconds: silence.endsMicroseconds))
        f.append("SILENCE_COMMENT=" + silence.comment)
        f.append("SILENCE_BY=" + silence.by)
        return f
    }

    /// `silence 1b2c… (rule=cpu-* sensor=* host=*) by alice until 2026-12-02T18:00:00Z: fan swap`,
    /// or `silence 1b2c… (…) expired by alice`.
    public static func message(_ s: Silence) -> String {
        var m = "silence \(s.id) (\(s.matchers)) "
        m += s.expired ? "expired by \(s.by)" : "by \(s.by) until \(RFC3339.format(microseconds: s.endsMicroseconds))"
        if !s.comment.isEmpty { m += ": " + s.comment }
        return m
    }
}
