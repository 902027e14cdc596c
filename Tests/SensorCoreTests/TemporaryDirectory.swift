#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test; `remove()` deletes it and what it holds
/// (files and directories one level deep, which is all the state tests create).
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/sensorwatch-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func remove() {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name == "." || name == ".." { continue }
                let full = path + "/" + name
                if unlink(full) != 0 { rmdir(full) }
            }
            closedir(dir)
        }
        rmdir(path)
    }

    /// Writes `text` to `name` inside the directory.
    func write(_ name: String, _ text: String) {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The names inside the directory, sorted.
    func names() -> [String] {
        var out: [String] = []
        guard let dir = opendir(path) else { return [] }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { out.append(name) }
        }
        closedir(dir)
        return out.sorted()
    }
}
