#if canImport(Glibc)
import Glibc
#endif
import CLinux
/// Directory walking and small text reads for discovery (not the per-sample path).
///
/// Discovery runs at start, once a minute and on reload, so it may allocate freely; it
/// reads text through the reader's ``SysfsIO`` so a blocking `name` stalls only that reader.
/// Listing a directory is ``DirectoryListing``'s (the journal readers use it too).
public enum SysfsTree {
    /// The names in `dir` as one number that changes when a name comes or goes, whatever
    /// their order (``entries(_:)`` without its strings and sort: it runs before every poll,
    /// SPEC §20); nil when the directory cannot be read.
    public static func fingerprint(_ dir: String) -> UInt64? {
        var value: UInt64 = 0
        return sw_dir_fingerprint(dir, &value) == 0 ? value : nil
    }

    /// Whether `path` is a directory, following symlinks (class entries are links).
    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether something exists at `path` (following symlinks).
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The canonical path of `path`, or nil when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// The last component of the target of the symlink at `path` (`pci` for a `subsystem`
    /// link to `../../../bus/pci`), or nil when there is no link there.
    static func linkName(_ path: String) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer -> String? in
            let n = readlink(path, buffer.baseAddress!, buffer.count)
            guard n > 0 else { return nil }
            let target = String(
                decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<n]), as: UTF8.self)
            return target.split(separator: "/").last.map(String.init)
        }
    }

    /// The trimmed text of a small attribute (`name`, `type`, `tempN_label`); nil when it
    /// cannot be opened or read, or is empty (``blocked(_:io:)`` tells a file that blocks).
    static func text(_ path: String, io: any SysfsIO) -> String? {
        let fd = io.open(path)
        if fd < 0 { return nil }
        defer { io.close(fd) }
        return withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { buffer -> String? in
            text(io.read(fd, into: buffer), UnsafeRawBufferPointer(buffer))
        }
    }

    /// The trimmed text of the `n` bytes a read put in `buffer`; nil when `n` is an error or
    /// the text is empty.
    static func text(_ n: Int, _ buffer: UnsafeRawBufferPointer) -> String? {
        if n <= 0 { return nil }
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
        let trimmed = s.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension SysfsTree {
    /// The fault of a sensor named by `path`'s text when that file blocks (SPEC §8), else nil.
    static func blocked(_ path: String, io: any SysfsIO) -> String? {
        guard io.isBlocked(path) else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name + ": " + HungFiles.reason
    }
}

extension String {
    /// Drops leading and trailing spaces, tabs, CRs, newlines and NULs.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0 }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
