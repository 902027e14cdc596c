import Glibc
import SensorConfig
import SensorRuntime

#if canImport(Glibc)
#endif

/// Which host each journal file in a collector's directory belongs to, for the entries
/// read from it (``JournalTrust/fileHost(name:)``).
///
/// sd-journal does not say which file an entry came from, but its cursor does: `s=` is the
/// file's sequence-number id, which journal-remote draws afresh for each writer (one per
/// host in split mode) and hands on when it rotates the file, and which stands in the
/// file's header (systemd's JOURNAL_FILE_FORMAT: 16 bytes at offset 72, after the
/// signature `LPKSHHRH`). The directory is read again when a cursor names an id not seen
/// yet (a new host's file); an id still unknown then is a file of no host.
struct JournalFileHosts {
    /// A file's host and name.
    struct Origin: Hashable {
        var host: String?
        var file: String?
    }

    private let directory: String
    private var origins: [String: Origin] = [:]

    init(directory: String) { self.directory = directory }

    /// The host and name of the file the entry at `cursor` was read from.
    mutating func origin(cursor: String) -> Origin {
        guard let id = Self.seqnumID(cursor: cursor) else { return Origin() }
        if let known = origins[id] { return known }
        scan()
        if let known = origins[id] { return known }
        origins[id] = Origin()
        return Origin()
    }

    /// The `s=` field of a cursor (`s=…;i=…;b=…`).
    static func seqnumID(cursor: String) -> String? {
        guard cursor.hasPrefix("s=") else { return nil }
        let id = cursor.dropFirst(2).prefix { $0 != ";" }
        return id.isEmpty ? nil : String(id)
    }

    /// Reads the ids of the directory's journal files. Two files with one id and different
    /// hosts (copied, not written by journal-remote) tie their entries to no host.
    private mutating func scan() {
        var found: [String: Origin] = [:]
        for name in DirectoryListing.entries(directory)
        where name.hasSuffix(".journal") || name.hasSuffix(".journal~") {
            guard let id = Self.headerSeqnumID(directory + "/" + name) else { continue }
            let origin = Origin(host: JournalTrust.fileHost(name: name), file: name)
            if let other = found[id], other.host != origin.host {
                found[id] = Origin()
            } else if found[id] == nil || origin.host != nil {
                found[id] = origin
            }
        }
        origins.merge(found) { _, new in new }
    }

    /// The sequence-number id in the header of the journal file at `path`, as lowercase hex
    /// (the cursor's spelling); nil when it is not a journal file or cannot be read.
    static func headerSeqnumID(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 88)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n == header.count, header.starts(with: Array("LPKSHHRH".utf8)) else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for byte in header[72..<88] {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
