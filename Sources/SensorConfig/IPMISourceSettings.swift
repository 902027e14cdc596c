/// What an `ipmi` source says of its BMC (SPEC §23), for one BMC: a source with several
/// `hosts` is one ``SourceConfiguration`` per host, so each BMC has its own poll thread and
/// session and no BMC waits for another.
///
/// The password itself is never kept here (a configuration is compared, logged and shown):
/// only where to read it, when a session is opened.
public struct IPMISourceSettings: Sendable, Hashable {
    /// The privilege level the session asks for.
    public enum Privilege: String, Sendable, Hashable, CaseIterable {
        case user, `operator`, admin
    }

    /// The BMC's host as written (`bmc-r1-01`, `10.0.4.12:6230`); nil in band (`/dev/ipmi0`).
    public var host: String?
    /// The user name of the session (LAN only).
    public var user: String
    /// Where the password is (`passwordFile` or `credential`); nil in band.
    public var password: SecretSource?
    /// The privilege level the session asks for (`user` by default).
    public var privilege: Privilege
    /// The RMCP+ cipher suite (default 3).
    public var cipherSuite: Int
    /// FreeIPMI's workaround names (`opensesspriv`), as written.
    public var workarounds: [String]
    /// How long one call may take before the session counts as lost (default 5 s).
    public var timeout: Duration

    /// Settings with SPEC §23's defaults for what is not given.
    public init(
        host: String? = nil, user: String = "", password: SecretSource? = nil,
        privilege: Privilege = .user, cipherSuite: Int = 3, workarounds: [String] = [], timeout: Duration = .seconds(5)
    ) {
        self.host = host
        self.user = user
        self.password = password
        self.privilege = privilege
        self.cipherSuite = cipherSuite
        self.workarounds = workarounds
        self.timeout = timeout
    }

    /// The `<bmc>` part of this BMC's sensor ids: `local` in band, else the host as written.
    public var bmc: String { host ?? "local" }

    /// FreeIPMI's workaround names for IPMI 2.0 sessions (`ipmi-sensors -W`) and their flags
    /// (`IPMI_WORKAROUND_FLAGS_OUTOFBAND_2_0_*` of `ipmi-api.h`).
    public static let workaroundFlags: [String: UInt32] = [
        "authcap": 0x01, "intel20": 0x02, "supermicro20": 0x04, "sun20": 0x08, "opensesspriv": 0x10,
        "integritycheckvalue": 0x20, "nochecksumcheck": 0x40,
    ]
}
