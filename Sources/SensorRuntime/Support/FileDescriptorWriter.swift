#if canImport(Glibc)
import Glibc
#endif

/// Writes whole buffers to a file descriptor, retrying short writes and `EINTR`.
public enum FileDescriptorWriter {
    /// Writes all of `bytes` to `fd`; returns false (with `errno` set) if a write fails.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
    }

    /// Writes all of `buf` to `fd`; returns false (with `errno` set) if a write fails.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = buf.baseAddress else { return true }
        var off = 0
        while off < buf.count {
            let n = Glibc.write(fd, start + off, buf.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }
}
