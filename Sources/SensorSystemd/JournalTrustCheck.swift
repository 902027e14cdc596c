import SensorConfig
/// ``JournalTrust``'s verdict on the entries of one journal source: the trusted fields an
/// entry has, and, in a collector's directory or a named file, the host its file belongs to.
struct JournalTrustCheck {
    private let trust: JournalTrust
    /// A directory's files, found by the entry's cursor.
    private var hosts: JournalFileHosts?
    /// A named file's host (nil host for the local journal).
    private let file: JournalFileHosts.Origin

    init(trust: JournalTrust, source: JournalHistoryReader.Source) {
        self.trust = trust
        switch source {
        case .local:
            file = JournalFileHosts.Origin()
        case .directory(let directory):
            hosts = JournalFileHosts(directory: directory)
            file = JournalFileHosts.Origin()
        case .file(let path):
            let name = String(path.split(separator: "/").last ?? Substring(path))
            file = JournalFileHosts.Origin(host: JournalTrust.fileHost(name: name), file: name)
        }
    }

    /// Whether the verdict needs the entry's cursor (to find its file in a directory).
    var needsCursor: Bool { hosts != nil }

    /// The verdict on an entry, by its trusted fields (``JournalEntryDecoder/trustedFieldNames``),
    /// read at `cursor`.
    mutating func verdict(_ entry: [String: String], cursor: String?) -> JournalTrust.Verdict {
        var origin = file
        if hosts != nil, let cursor { origin = hosts!.origin(cursor: cursor) }
        return trust.verdict(
            JournalTrust.Entry(
                unit: entry["_SYSTEMD_UNIT"], uid: entry["_UID"], hostname: entry["_HOSTNAME"], fileHost: origin.host,
                fileName: origin.file))
    }
}
