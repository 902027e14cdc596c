/// Where a BMC's new System Event Log records go (the journal, SPEC §23), and where the
/// position in each BMC's log is kept (the daemon's state file).
public protocol IPMIEventLogSink: Sendable {
    /// Logs `entries` of the BMC `bmc`, in log order, each once.
    func log(_ entries: [IPMIEventLogEntry], bmc: String)
    /// Keeps `recordID` as the last record of `bmc`'s log seen, across restarts.
    func keep(position recordID: Int, bmc: String)
    /// Says how many records `bmc`'s log held when it was first read (counted, not logged).
    func counted(_ records: Int, bmc: String)
}
