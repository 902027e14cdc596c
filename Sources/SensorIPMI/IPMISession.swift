/// One open session with one BMC: what ``IPMIReader`` asks of it.
///
/// Implementation requirements: every call blocks for at most the session timeout; a call
/// that fails with ``IPMIFailure/Kind/timeout`` leaves the session unusable (the reader
/// closes it and opens another); ``close()`` frees the BMC's session slot and is called
/// exactly once. Used by one thread at a time, so it need not be `Sendable`.
public protocol IPMISession: AnyObject {
    /// The sensor records of the SDR, in SDR order (from `cachePath` when it is current).
    func records(cachePath: String) throws(IPMIFailure) -> [IPMIRecord]
    /// Reads the sensor of record `index` (of ``records(cachePath:)``); throws only when the
    /// session failed.
    func read(_ index: Int) throws(IPMIFailure) -> IPMIReading
    /// FreeIPMI's meaning of state `offset` of a discrete sensor of these codes.
    func meaning(eventReadingType: UInt8, sensorType: UInt8, offset: Int) -> IPMIStateMeaning
    /// The System Event Log's records from record `start` on (0: all), in log order; throws
    /// ``IPMIFailure/Kind/other`` when the log no longer holds `start`.
    func eventLog(from start: Int) throws(IPMIFailure) -> [IPMIEventLogEntry]
    /// Closes the session.
    func close()
}
