#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Directory walking and small text reads for discovery (not the per-sample path).
///
/// Discovery runs at start, once a minute and on reload, so it may allocate freely; it
/// reads text through the reader's ``SysfsIO`` so a blocking `name` stalls only that reader.
/// The journal readers list a collector's directory with it too.
public enum SysfsTree {
    /// Names in `dir` (without `.` and `..`), sorted bytewise; empty when unreadable.
    public static func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = name(of: e)
            if name != ".", name != ".." { names.append(name) }
        }
        // Sorted byte by byte (UTF-8), on keys of each name's first 16 bytes compared as two
        // integers made from the bytes in place: comparing the UTF-8 views code unit by code
        // unit was the largest cost of listing a big tree (figures: bench/README.md, "Instructions behind the code's shortcuts").
        var keyed = names.map { name -> (UInt64, UInt64, String) in
            var copy = name
            let key = copy.withUTF8 { bytes -> (UInt64, UInt64) in
                var key: (UInt64, UInt64) = (0, 0)
                for i in 0..<min(bytes.count, 16) {
                    let byte = UInt64(bytes[i])
                    if i < 8 { key.0 |= byte << (56 - 8 * i) } else { key.1 |= byte << (56 - 8 * (i - 8)) }
                }
                return key
            }
            return (key.0, key.1, name)
        }
        // A name has no NUL, so a shorter name's zero padding sorts it before a longer one
        // with the same start, as a byte compare does.
        keyed.sort { a, b in a.0 != b.0 ? a.0 < b.0 : a.1 != b.1 ? a.1 < b.1 : precedesBytewise(a.2, b.2) }
        return keyed.map(\.2)
    }

    /// The names in `dir` as one number that changes when a name comes or goes, whatever
    /// their order (``entries(_:)`` without its strings and sort: it runs before every poll,
    /// SPEC §20); nil when the directory cannot be read.
    public static func fingerprint(_ dir: String) -> UInt64? {
        var value: UInt64 = 0
        return sw_dir_fingerprint(dir, &value) == 0 ? value : nil
    }

    /// Whether `a` sorts before `b` byte by byte (UTF-8), as `ls` in the C locale does.
    private static func precedesBytewise(_ a: String, _ b: String) -> Bool {
        let r = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let n = min(x.count, y.count)
                let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                return c != 0 ? c < 0 : x.count < y.count
            }
        }
        return (r ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The name in a directory entry that `readdir` returned.
    ///
    /// Read up to its NUL where it stands: copying `d_name` (a 256-byte array) reads past
    /// a short entry's end, and the last entry of glibc's buffer can end at an unmapped
    /// page (a thermal class of a thousand zones crashed at its first rediscovery).
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
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
            let target = String(decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<n]), as: UTF8.self)
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
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
