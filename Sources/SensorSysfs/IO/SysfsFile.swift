#if canImport(Glibc)
import Glibc
#endif
/// One sysfs attribute, opened once and re-read with `pread` at offset 0.
///
/// A kept descriptor goes stale when its device is unbound or unplugged: reads then fail
/// with `ENODEV` (or `ENOENT` on some file systems), so the file is reopened once by path
/// and read again. The owner must call ``close(io:)`` when the sensor goes away.
struct SysfsFile: Sendable {
    /// Absolute path of the attribute.
    let path: String
    private(set) var fd: Int32 = -1

    init(path: String) { self.path = path }

    /// Reads the attribute into `buffer`; returns the byte count, or `-errno`.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, io: any SysfsIO) -> Int {
        if fd < 0 {
            let opened = io.open(path)
            if opened < 0 { return Int(opened) }
            fd = opened
        }
        let n = io.read(fd, into: buffer)
        guard Self.isStale(n) else { return n }
        return reopenAndRead(into: buffer, io: io)
    }

    /// Whether a read result means the descriptor went stale and the file must be reopened.
    static func isStale(_ result: Int) -> Bool { result == -Int(ENODEV) || result == -Int(ENOENT) }

    /// Closes the stale descriptor, opens the path again and reads; the byte count or `-errno`.
    mutating func reopenAndRead(into buffer: UnsafeMutableRawBufferPointer, io: any SysfsIO) -> Int {
        close(io: io)
        let reopened = io.open(path)
        if reopened < 0 { return Int(reopened) }
        fd = reopened
        return io.read(fd, into: buffer)
    }

    /// Closes the descriptor, if one is open.
    mutating func close(io: any SysfsIO) {
        if fd >= 0 { io.close(fd) }
        fd = -1
    }
}
