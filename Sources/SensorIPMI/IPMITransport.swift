public import SensorConfig
/// Opens sessions with BMCs: the seam between ``IPMIReader`` and libfreeipmi
/// (``FreeIPMITransport``), so the reader is tested without a BMC or `/dev/ipmi0`.
public protocol IPMITransport: Sendable {
    /// Opens a session with the BMC `settings` names (in band when it has no host), as
    /// `password`'s user; blocks for at most `settings.timeout`. The session is used once
    /// each `interval` and rests in between: resting is not a timeout.
    func open(
        _ settings: IPMISourceSettings, interval: Duration, password: String
    ) throws(IPMIFailure) -> any IPMISession
}
