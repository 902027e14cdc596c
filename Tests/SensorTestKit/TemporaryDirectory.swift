#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test, removed with everything in it when the value
/// goes away.
///
/// Tests build configuration files, state directories and sysfs-like trees in it. Files are
/// rewritten in place (`O_TRUNC`), as the kernel changes a sysfs value, so a reader's kept
/// descriptor sees the new content. A tree from ``fixture(_:filePath:)`` may instead be the
/// shared fixture itself, used in place and never removed.
public final class TemporaryDirectory: Sendable {
    /// The directory, absolute, without a trailing slash.
    public let root: String
    private let owned: Bool

    /// Makes `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "sensorwatch-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = String(cString: made!)
        owned = true
    }

    /// An existing directory, not removed at the end.
    init(existing: String) {
        root = existing
        owned = false
    }

    deinit {
        if owned { Self.removeTree(root) }
    }

    /// The absolute path of `rel` inside the directory (the directory itself for "").
    public func path(_ rel: String) -> String { rel.isEmpty ? root : root + "/" + rel }

    /// Writes `content` to `rel`, creating parent directories; returns the absolute path.
    @discardableResult
    public func write(_ rel: String, _ content: String) -> String {
        write(rel, bytes: Array(content.utf8))
    }

    /// Writes `bytes` (text or not) to `rel`, creating parent directories; returns the
    /// absolute path.
    @discardableResult
    public func write(_ rel: String, bytes: [UInt8]) -> String {
        makeParents(rel)
        let full = path(rel)
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot write \(full)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return full
    }

    /// Writes several files at once: `[relative path: content]`.
    public func write(_ files: [String: String]) {
        for (rel, content) in files { write(rel, content) }
    }

    /// Makes `rel` and its parents.
    public func mkdir(_ rel: String) {
        var p = ""
        for part in rel.split(separator: "/") {
            p += (p.isEmpty ? "" : "/") + part
            _ = Glibc.mkdir(path(p), 0o755)
        }
    }

    /// Makes `rel` a symbolic link to `target` (as written, relative or absolute).
    public func symlink(_ rel: String, to target: String) {
        makeParents(rel)
        precondition(Glibc.symlink(target, path(rel)) == 0, "cannot link \(rel)")
    }

    /// A FIFO: opening it for reading blocks until a writer comes, like a stuck driver.
    public func fifo(_ rel: String) {
        makeParents(rel)
        precondition(mkfifo(path(rel), 0o644) == 0, "cannot mkfifo \(rel)")
    }

    /// Removes `rel` and, for a directory, everything in it.
    public func remove(_ rel: String) { Self.removeTree(path(rel)) }

    /// The names inside `rel` (the directory itself by default), sorted.
    public func names(_ rel: String = "") -> [String] {
        Self.entries(path(rel)).sorted()
    }

    /// The whole content of the file at absolute path `p`, or nil when it cannot be opened.
    public static func readFile(_ p: String) -> String? {
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

    private func makeParents(_ rel: String) {
        if let slash = rel.lastIndex(of: "/") { mkdir(String(rel[..<slash])) }
    }

    private static func entries(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = String(
                cString: (UnsafeRawPointer(e) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(
                    to: CChar.self))
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private static func removeTree(_ p: String) {
        var st = stat()
        guard lstat(p, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            for n in entries(p) { removeTree(p + "/" + n) }
            rmdir(p)
        } else {
            unlink(p)
        }
    }
}
