#if canImport(Glibc)
import Glibc
#endif

/// Gives back the read-only pages of the program and its libraries that only start-up used.
///
/// Decoding the JSON5 configuration, discovery and the runtime's own set-up touch code and
/// constant data that the steady poll loop never runs again, and they stay resident: about
/// a third of the daemon's RSS. `MADV_PAGEOUT` (Linux 5.4+) drops them; pages still in use
/// come straight back from the page cache on their next use (a minor fault, once). Only
/// read-only, file-backed mappings are touched, so no data can be lost. Best effort: on an
/// older kernel the call fails and nothing changes.
enum StartupPages {
    /// Pages out every read-only file mapping of this process. Returns the bytes advised.
    @discardableResult
    static func release() -> Int {
        guard let maps = fopen("/proc/self/maps", "r") else { return 0 }
        defer { fclose(maps) }
        var advised = 0
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            // start-end perms offset dev inode path
            guard fields.count >= 6, fields[1].hasPrefix("r"), fields[1].dropFirst().first == "-",
                fields[5].hasPrefix("/")
            else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            if madvise(address, Int(end - start), 21 /* MADV_PAGEOUT */) == 0 { advised += Int(end - start) }
        }
        return advised
    }
}
