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
    public func open(_ settings: IPMISourceSettings, password: String) throws(IPMIFailure) -> any IPMISession {
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
        let ms =
            settings.timeout.components.seconds * 1000 + settings.timeout.components.attoseconds / 1_000_000_000_000_000
        var failure: Int32 = 0
        var error = [CChar](repeating: 0, count: 320)
        let handle = sw_ipmi_open(
            settings.host, settings.user, password, privilege, Int32(settings.cipherSuite),
            UInt32(clamping: max(ms, 1)), flags,
            &failure, &error, error.count)
        guard let handle else { throw FreeIPMISession.failure(failure, error) }
        return FreeIPMISession(handle)
    }

    /// Whether libfreeipmi can be loaded here; nil when it can, else why not (with the
    /// package to install).
    public static func libraryProblem() -> String? {
        var error = [CChar](repeating: 0, count: 320)
        guard sw_ipmi_library(&error, error.count) != 0 else { return nil }
        return FreeIPMISession.text(error)
    }
}
