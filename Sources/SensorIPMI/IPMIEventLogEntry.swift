import SensorCore

/// One record of a BMC's System Event Log, as FreeIPMI reads it.
public struct IPMIEventLogEntry: Hashable, Sendable {
    /// The record id.
    public var recordID: Int
    /// The BMC's timestamp (seconds since 1970, the BMC's clock).
    public var timestamp: UInt32
    /// The sensor's name (untrusted text).
    public var sensor: String
    /// The event in words (`Upper Critical - going high`; untrusted text).
    public var event: String
    /// FreeIPMI's interpretation of the record.
    public var severity: IPMIStateMeaning.Severity

    /// A record as FreeIPMI read it.
    public init(recordID: Int, timestamp: UInt32, sensor: String, event: String, severity: IPMIStateMeaning.Severity) {
        self.recordID = recordID
        self.timestamp = timestamp
        self.sensor = sensor
        self.event = event
        self.severity = severity
    }
}
