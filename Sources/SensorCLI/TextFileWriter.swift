#if canImport(Glibc)
import Glibc
#endif
import SensorCore

/// Writes a whole text file (created or truncated, mode 0644).
enum TextFileWriter {
    /// Returns false with `errno` set when the file cannot be written.
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return FileDescriptorWriter.writeAll(fd, Array(text.utf8))
    }
}
