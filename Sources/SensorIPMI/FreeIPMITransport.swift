import FreeIPMILoader
import Glibc
public import SensorConfig
/// Sessions through libfreeipmi, loaded with dlopen on the first open (``FreeIPMILoader``):
/// IPMI 2.0 over the LAN, or in band through `/dev/ipmi0` (the OpenIPMI driver).
public struct FreeIPMITransport: IPMITransport {
    /// Where in band looks for the kernel's IPMI device.
    let devicePath: String

    /// A transport for real BMCs; `devicePath` is the in-band device (tests name a missing one).
    public init(devicePath: String = "/dev/ipmi0") { self.devicePath = devicePath }

    /// Opens a session through libfreeipmi (loaded now if it is not yet).
    public func open(
        _ settings: IPMISourceSettings, interval: Duration, password: String
    ) throws(IPMIFailure) -> any IPMISession {
        if settings.host == nil, access(devicePath, F_OK) != 0 {
            // Said before loading the library: without the device it could not help.
            throw IPMIFailure(.noDevice)
        }
        let privilege: Int32 =
            switch settings.privilege {
            case .user: 2
            case .operator: 3
            case .admin: 4
            }
        let flags = settings.workarounds.reduce(UInt32(0)) { $0 | (IPMISourceSettings.workaroundFlags[$1] ?? 0) }
        let t = Self.timeouts(timeout: settings.timeout, interval: interval)
        var failure: Int32 = 0
        var error = [CChar](repeating: 0, count: 320)
        let handle = sw_ipmi_open(
            settings.host, settings.user, password, privilege, Int32(settings.cipherSuite),
            t.call, t.session, t.retransmission, flags,
            &failure, &error, error.count)
        guard let handle else { throw FreeIPMISession.failure(failure, error) }
        return FreeIPMISession(handle)
    }

    /// The timeouts (ms) of a session polled each `interval` whose calls may take `timeout`:
    /// the open's first question (asked without a session), FreeIPMI's session timeout and
    /// its retransmission timeout.
    ///
    /// FreeIPMI fails a call once its session timeout has passed since the last packet it
    /// received, not since the call began (libfreeipmi's `_session_timed_out`): given
    /// `timeout` alone, the first call after a rest longer than it failed at once, every
    /// other poll. So the session timeout also covers the rest between two polls; a BMC that
    /// stalls at a poll still fails `timeout` after it, as the last packet came a rest
    /// before. The open counts it too, so the BMC is first asked without a session, within
    /// `timeout`. A request is sent again each fifth of `timeout`: a lost datagram costs
    /// that, not the whole timeout.
    static func timeouts(
        timeout: Duration, interval: Duration
    ) -> (call: UInt32, session: UInt32, retransmission: UInt32) {
        let call = max(milliseconds(timeout), 1)
        return (
            UInt32(clamping: call), UInt32(clamping: call + milliseconds(interval)),
            UInt32(clamping: max(call / 5, 1))
        )
    }

    private static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    /// Whether libfreeipmi can be loaded here; nil when it can, else why not (with the
    /// package to install).
    public static func libraryProblem() -> String? {
        var error = [CChar](repeating: 0, count: 320)
        guard sw_ipmi_library(&error, error.count) != 0 else { return nil }
        return FreeIPMISession.text(error)
    }
}
