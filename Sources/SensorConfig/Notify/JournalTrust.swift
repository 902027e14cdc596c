/// Whether a journal entry that looks like a sensorwatch alert was written by the daemon
/// (SPEC §17, Trust): what `notify` delivers and `history` lists.
///
/// `SYSLOG_IDENTIFIER`, `MESSAGE_ID` and the `ALERT_*` fields are the writer's to choose:
/// any local user can send them with `logger --journald`. Only the fields journald sets
/// itself from the sender's credentials (`_UID`, `_SYSTEMD_UNIT`; kept as they were by
/// journal-upload and journal-remote) say who wrote an entry, and in a collector's
/// directory only the file journal-remote wrote it to says which host sent it. A pure
/// verdict, so that every reader of alert-like entries (the follower, the history reader,
/// silences) takes the same decision.
public struct JournalTrust: Sendable, Hashable {
    /// The units whose entries are the daemon's by default.
    public static let defaultUnits: Set<String> = ["sensorwatch.service"]
    /// The users whose entries are the daemon's by default: root, which can write the journal
    /// files themselves anyway.
    public static let defaultUIDs: Set<UInt32> = [0]
    /// The default trust: the daemon's unit, or root.
    public static let daemon = JournalTrust()

    /// Entries with one of these `_SYSTEMD_UNIT`s are the daemon's.
    public var units: Set<String>
    /// Entries with one of these `_UID`s are the daemon's.
    public var uids: Set<UInt32>

    /// A trust of the given units and users; by default the daemon's unit and root.
    public init(units: Set<String> = JournalTrust.defaultUnits, uids: Set<UInt32> = JournalTrust.defaultUIDs) {
        self.units = units
        self.uids = uids
    }

    /// What the verdict is made from: one entry's trusted fields and where it was read.
    public struct Entry: Sendable, Hashable {
        /// `_SYSTEMD_UNIT`, nil when absent.
        public var unit: String?
        /// `_UID` as journald wrote it (decimal), nil when absent.
        public var uid: String?
        /// `_HOSTNAME`, nil when absent.
        public var hostname: String?
        /// The host the entry's file belongs to (``fileHost(name:)``): nil for the local
        /// journal and for files that name no host.
        public var fileHost: String?
        /// The file's name, for the reason given when its host is not the entry's.
        public var fileName: String?

        /// An entry of the given fields; nil is an absent field (or, for `fileHost`, a local file).
        public init(
            unit: String? = nil, uid: String? = nil, hostname: String? = nil, fileHost: String? = nil,
            fileName: String? = nil
        ) {
            self.unit = unit
            self.uid = uid
            self.hostname = hostname
            self.fileHost = fileHost
            self.fileName = fileName
        }
    }

    /// The decision on one entry.
    public enum Verdict: Sendable, Hashable {
        /// The daemon wrote it.
        case trusted
        /// Someone else did, or it cannot be told: why, in words for the warning.
        case lookAlike(String)
    }

    /// Whether `entry` was written by the daemon: its unit or its user is trusted, and, when
    /// its file belongs to a host, that host is its `_HOSTNAME`.
    public func verdict(_ entry: Entry) -> Verdict {
        if let host = entry.fileHost, entry.hostname != host {
            let file = entry.fileName ?? "remote-\(host).journal"
            return .lookAlike("_HOSTNAME=\(entry.hostname ?? "(none)") in \(host)'s file \(file)")
        }
        if let unit = entry.unit, units.contains(unit) { return .trusted }
        if let uid = entry.uid.flatMap(Self.uid), uids.contains(uid) { return .trusted }
        if entry.unit == nil, entry.uid == nil {
            return .lookAlike("no _UID or _SYSTEMD_UNIT (not written through journald)")
        }
        let who = [entry.uid.map { "_UID=\($0)" }, entry.unit.map { "_SYSTEMD_UNIT=\($0)" }]
            .compactMap { $0 }.joined(separator: " ")
        return .lookAlike("written by \(who), not a trusted unit or user")
    }

    /// `_UID` as journald writes it, decimal digits only (`UInt32.init` would take `+0`).
    private static func uid(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt32(text)
    }

    /// The host a journal file belongs to, from the name `systemd-journal-remote`'s split mode
    /// gives it: `remote-HOST.journal`, rotated `remote-HOST@….journal` or `….journal~`.
    ///
    /// nil for any other name (a machine's own journal, `remote.journal` of split mode
    /// none) and for a HOST that is an address: over plain HTTP journal-remote names the file
    /// after the peer's address, and every host behind it (loopback, NAT) shares the file
    /// (SPEC §13), so such a file ties its entries to no host. A name comes from the
    /// sender's TLS certificate, which vouches for it.
    public static func fileHost(name: String) -> String? {
        var rest = Substring(name)
        guard rest.hasPrefix("remote-") else { return nil }
        rest = rest.dropFirst("remote-".count)
        if rest.hasSuffix("~") { rest = rest.dropLast() }
        guard rest.hasSuffix(".journal") else { return nil }
        rest = rest.dropLast(".journal".count)
        if let at = rest.firstIndex(of: "@") { rest = rest[..<at] }
        guard !rest.isEmpty, !isAddress(rest) else { return nil }
        return String(rest)
    }

    /// Whether `host` is an IPv4 (digits and dots) or IPv6 (has a colon) address: no host
    /// name has a colon, and none is all digits.
    private static func isAddress(_ host: Substring) -> Bool {
        host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
    }
}
