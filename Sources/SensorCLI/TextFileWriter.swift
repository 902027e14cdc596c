#if canImport(Glibc)
import Glibc
#endif
import SensorCore

/// Writes whole text files (mode 0644).
enum TextFileWriter {
    /// Creates or truncates `path` and writes `text`; returns false with `errno` set when the
    /// file cannot be written.
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return FileDescriptorWriter.writeAll(fd, Array(text.utf8))
    }

    /// Replaces `path` with `text` atomically: a temporary file in the same directory is
    /// written, fsynced and renamed over it, so a reader (or a crash) sees the old file or
    /// the whole new one, never part of it. Returns false with `errno` set on failure,
    /// leaving no temporary file behind.
    static func replace(_ path: String, with text: String) -> Bool {
        var template = Array(ConfigPath.hiddenSibling(of: path, suffix: ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return false }
        let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = fchmod(fd, 0o644) == 0 && FileDescriptorWriter.writeAll(fd, Array(text.utf8)) && fsync(fd) == 0
        let saved = errno
        close(fd)
        if ok {
            ok = rename(temp, path) == 0
        } else {
            errno = saved
        }
        if !ok {
            let failed = errno
            unlink(temp)
            errno = failed
        }
        return ok
    }

    /// Whether a file can be created at `path` (its directory exists and is writable, and
    /// `path` is not a directory); false with `errno` set otherwise. Asked before a long
    /// run that writes at its end.
    static func canCreate(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            errno = EISDIR
            return false
        }
        return access(ConfigPath.directory(of: path), W_OK) == 0
    }
}
