/// Why a BMC could not be read, as the session layer tells it: a kind for the words, and
/// FreeIPMI's own text for the rest.
public struct IPMIFailure: Error, Hashable, Sendable {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// libfreeipmi could not be loaded.
        case noLibrary
        /// The BMC did not answer within the session timeout (stalled, or unreachable).
        case timeout
        /// The BMC refused the password.
        case password
        /// The BMC does not know the user.
        case user
        /// The BMC refused the privilege level asked for.
        case privilege
        /// The host name does not resolve.
        case host
        /// In band: no `/dev/ipmi0`.
        case noDevice
        /// The password could not be read (file or credential).
        case secret
        /// Anything else (FreeIPMI's words in ``detail``).
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// The library's or the system's words.
    public var detail: String

    /// A failure of `kind`, with `detail`.
    public init(_ kind: Kind, _ detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// The reason for people, naming the BMC: `bmc-r1-07: session timeout after 5 s`,
    /// `bmc-r1-07: password refused`. Never holds the password.
    public func words(bmc: String, timeout: Duration) -> String {
        let what: String
        switch kind {
        case .noLibrary: what = detail
        case .timeout: what = "session timeout after \(Self.seconds(timeout)) s"
        case .password: what = "password refused"
        case .user: what = "user refused"
        case .privilege:
            what = "privilege level refused (\(detail); some BMCs need workarounds: [\"opensesspriv\"])"
        case .host: what = "cannot resolve the host name"
        case .noDevice:
            what =
                "no /dev/ipmi0: load the IPMI drivers (modprobe ipmi_si ipmi_devintf), or read the BMC over the LAN (hosts)"
        case .secret: what = detail
        case .other: what = detail.isEmpty ? "IPMI error" : detail
        }
        return bmc + ": " + what
    }

    /// A duration in seconds as people write it: `5`, `2.5`.
    static func seconds(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }
}
