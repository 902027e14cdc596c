#if canImport(Glibc)
import Glibc
#endif

extension TemporaryDirectory {
    /// The shared real fixture `name` (`node_exporter_sys`, `procfs_sys`), used in place.
    ///
    /// Where the shared copy lost its symlinks (they are stored as regular files holding
    /// the link text), the tree is rebuilt under /tmp from its `MANIFEST.tsv`, so readers
    /// see the `class/… -> devices/…` links real sysfs has. `$SHARED` names the shared
    /// directory; without it, `../shared` next to the repository of the calling test file.
    public static func fixture(_ name: String, filePath: String = #filePath) -> TemporaryDirectory {
        let base = sharedDirectory(filePath: filePath) + "/fixtures/sysfs/" + name
        let manifest = readFile(base + "/MANIFEST.tsv") ?? ""
        let rows = manifest.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        let links = rows.filter { $0.first == "symlink" && $0.count >= 3 }
        var st = stat()
        if let first = links.first, lstat(base + "/" + first[1], &st) == 0, (st.st_mode & S_IFMT) != S_IFLNK {
            let copy = TemporaryDirectory()
            for row in rows where row.count >= 2 {
                switch row[0] {
                case "dir": copy.mkdir(row[1])
                case "file": copy.write(row[1], readFile(base + "/" + row[1]) ?? "")
                case "symlink": copy.symlink(row[1], to: String(row[2].dropFirst(3)))
                default: break
                }
            }
            return copy
        }
        return TemporaryDirectory(existing: base)
    }

    private static func sharedDirectory(filePath: String) -> String {
        if let env = getenv("SHARED") { return String(cString: env) }
        // Tests/<target>/<file> → repository root → ../shared
        var parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared"
    }
}
