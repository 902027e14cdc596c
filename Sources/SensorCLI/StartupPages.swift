#if canImport(Glibc)
import Glibc
#endif

/// Gives back the read-only pages of the program and its libraries that only start-up used.
///
/// Decoding the JSON5 configuration, discovery and the runtime's own set-up touch code and
/// constant data that the steady poll loop never runs again, and they stay resident: about
/// a third of the daemon's RSS. Dropping them costs nothing lasting: pages still in use come
/// straight back from the page cache on their next use (a minor fault, once). Only read-only,
/// file-backed mappings are touched, so no data can be lost.
enum StartupPages {
    /// Lets go of every read-only file page of this process that no write ever touched, those
    /// another process maps too included: `top` beside `run` shares the daemon's binary, whose
    /// resident text `MADV_PAGEOUT` leaves alone and RSS counts in both (issue 36's ≤ 10 MiB).
    /// `MADV_DONTNEED` drops this process's mappings only; a page it uses again comes back from
    /// the page cache (a minor fault, once). A mapping with any anonymous page (RELRO, written
    /// before it was made read-only) is left alone: dropping it would lose those writes.
    /// Returns the bytes dropped.
    @discardableResult
    static func releaseShared() -> Int {
        var dropped = 0
        // The mapping whose fields are being read, when it may be dropped.
        var candidate: (address: UnsafeMutableRawPointer, length: Int)?
        eachLine(of: "/proc/self/smaps") { fields in
            guard let first = fields.first else { return }
            if first.hasPrefix("Anonymous:") {
                // The last field of a mapping that may be dropped: only when none of it is anonymous.
                if let c = candidate, fields.count >= 2, fields[1] == "0",
                    madvise(c.address, c.length, MADV_DONTNEED) == 0
                {
                    dropped += c.length
                }
                candidate = nil
                return
            }
            // A mapping's first line: start-end perms offset dev inode path.
            guard !first.hasSuffix(":"), fields.count >= 6 else { return }
            candidate = nil
            guard fields[1] == "r--p" || fields[1] == "r-xp", fields[5].hasPrefix("/"), let r = range(first) else {
                return
            }
            candidate = r
        }
        return dropped
    }

    /// Calls `body` with the blank-separated fields of each line of the file at `path`.
    private static func eachLine(of path: String, _ body: ([Substring]) -> Void) {
        guard let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            body(text.split(separator: " ", omittingEmptySubsequences: true))
        }
    }

    /// The mapping `start-end` (hexadecimal) as an address and a length.
    private static func range(_ field: Substring) -> (UnsafeMutableRawPointer, Int)? {
        let range = field.split(separator: "-")
        guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
            end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
        else { return nil }
        return (address, Int(end - start))
    }
}
