#if canImport(Glibc)
import Glibc
#endif

/// A directory's names in the order `ls` gives them in the C locale: sysfs discovery lists
/// classes and devices with it, the journal readers a collector's directory.
package enum DirectoryListing {
    /// Names in `dir` (without `.` and `..`), sorted bytewise; empty when unreadable.
    package static func entries(_ dir: String) -> [String] {
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
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}
