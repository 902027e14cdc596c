#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole text file (created or truncated, mode 0644).
enum TextFileWriter {
    /// Returns false with `errno` set when the file cannot be written.
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                off += n
            }
            return true
        }
    }
}
