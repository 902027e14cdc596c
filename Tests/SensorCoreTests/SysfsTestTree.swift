#if canImport(Glibc)
import Glibc
#endif

/// A sysfs-like tree written by a test under /tmp, removed when the value goes away.
///
/// Files are rewritten in place (`O_TRUNC`), as the kernel would change a value, so a
/// reader's kept descriptor sees the new content.
final class SysfsTestTree {
    let root: String
    private let owned: Bool

    init() {
        var template = Array("/tmp/sensorwatch-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = String(cString: made!)
        owned = true
    }

    private init(existing: String) {
        root = existing
        owned = false
    }

    deinit {
        if owned { Self.removeTree(root) }
    }

    func path(_ rel: String) -> String { rel.isEmpty ? root : root + "/" + rel }

    /// Writes `content` to `rel`, creating parent directories.
    func write(_ rel: String, _ content: String) {
        makeParents(rel)
        let fd = open(path(rel), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot write \(rel)")
        let bytes = Array(content.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Writes several files at once: `[relative path: content]`.
    func write(_ files: [String: String]) {
        for (rel, content) in files { write(rel, content) }
    }

    func mkdir(_ rel: String) {
        var p = ""
        for part in rel.split(separator: "/") {
            p += (p.isEmpty ? "" : "/") + part
            _ = Glibc.mkdir(path(p), 0o755)
        }
    }

    func symlink(_ rel: String, to target: String) {
        makeParents(rel)
        precondition(Glibc.symlink(target, path(rel)) == 0, "cannot link \(rel)")
    }

    /// A FIFO: opening it for reading blocks until a writer comes, like a stuck driver.
    func fifo(_ rel: String) {
        makeParents(rel)
        precondition(mkfifo(path(rel), 0o644) == 0, "cannot mkfifo \(rel)")
    }

    func remove(_ rel: String) { Self.removeTree(path(rel)) }

    private func makeParents(_ rel: String) {
        if let slash = rel.lastIndex(of: "/") { mkdir(String(rel[..<slash])) }
    }

    private static func removeTree(_ p: String) {
        var st = stat()
        guard lstat(p, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            if let d = opendir(p) {
                var names: [String] = []
                while let e = readdir(d) {
                    let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != ".", name != ".." { names.append(name) }
                }
                closedir(d)
                for n in names { removeTree(p + "/" + n) }
            }
            rmdir(p)
        } else {
            unlink(p)
        }
    }

    /// The shared real fixture `name` (`node_exporter_sys`, `procfs_sys`), used in place.
    ///
    /// Where the shared copy lost its symlinks (they are stored as regular files holding
    /// the link text), the tree is rebuilt under /tmp from its `MANIFEST.tsv`, so readers
    /// see the `class/… -> devices/…` links real sysfs has.
    static func fixture(_ name: String, filePath: String = #filePath) -> SysfsTestTree {
        let base = sharedDirectory(filePath: filePath) + "/fixtures/sysfs/" + name
        let manifest = readFile(base + "/MANIFEST.tsv") ?? ""
        let rows = manifest.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let links = rows.filter { $0.first == "symlink" && $0.count >= 3 }
        var st = stat()
        if let first = links.first, lstat(base + "/" + first[1], &st) == 0, (st.st_mode & S_IFMT) != S_IFLNK {
            let copy = SysfsTestTree()
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
        return SysfsTestTree(existing: base)
    }

    private static func sharedDirectory(filePath: String) -> String {
        if let env = getenv("SHARED") { return String(cString: env) }
        // Tests/SensorCoreTests/<file> → repository root → ../shared
        var parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared"
    }

    static func readFile(_ p: String) -> String? {
        let fd = open(p, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
