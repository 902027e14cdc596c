import SensorCore
import SensorIPMI
import SensorRuntime
import SensorSystemd

/// A BMC's new System Event Log records as journal entries (SPEC §23): `<bmc> event log:
/// <sensor>: <event>`, their own `MESSAGE_ID`, `IPMI_BMC`, `IPMI_SEL_ID`, `IPMI_SEL_TIME`,
/// `IPMI_SEL_SENSOR`, `IPMI_SEL_EVENT`, priority 2 critical, 4 warning, 5 else; the position
/// kept in the state file.
struct JournalEventLogSink: IPMIEventLogSink {
    let journal: JournalAlertSink
    let keeper: StateKeeper

    func log(_ entries: [IPMIEventLogEntry], bmc: String) {
        for e in entries {
            // The BMC's words are not trusted: escaped like every text from outside (SPEC §19).
            let sensor = DisplayText.escaped(e.sensor)
            let event = DisplayText.escaped(e.event)
            journal.log(
                LogEntry(
                    level: Self.level(e.severity),
                    message: "\(DisplayText.escaped(bmc)) event log: \(sensor): \(event)", kind: .bmcEventLog),
                extra: Self.fields(e, bmc: bmc, sensor: sensor, event: event))
        }
    }

    func keep(position recordID: Int, bmc: String) { keeper.keep(position: recordID, bmc: bmc) }

    func counted(_ records: Int, bmc: String) {
        journal.log(
            LogEntry(
                level: .info,
                message:
                    "\(DisplayText.escaped(bmc)) event log: \(records) record\(records == 1 ? "" : "s") there at the first read, counted, not logged"
            ))
    }

    /// The entry's priority from FreeIPMI's reading of the record.
    static func level(_ severity: IPMIStateMeaning.Severity) -> LogLevel {
        switch severity {
        case .critical: return .critical
        case .warning: return .warning
        case .nominal, .unknown: return .notice
        }
    }

    static func fields(_ e: IPMIEventLogEntry, bmc: String, sensor: String, event: String) -> [(String, String)] {
        [
            ("IPMI_BMC", bmc), ("IPMI_SEL_ID", String(e.recordID)),
            ("IPMI_SEL_TIME", RFC3339.format(Double(e.timestamp))),
            ("IPMI_SEL_SENSOR", sensor), ("IPMI_SEL_EVENT", event),
        ]
    }
}
