#if canImport(Glibc)
import Glibc
#endif

/// Reads an open file to its end: the one read loop for every whole file the program reads
/// (configuration and scenarios through ``TextFile``, `state.json` through ``StateStore``,
/// `notify.json` through ``NotifyStateStore``), so a short read or an `EINTR` is handled
/// one way everywhere (a BMC's password file too, from SensorIPMI).
package enum WholeFile {
    /// Every byte from the file's current offset to its end; `EINTR` is retried.
    ///
    /// - Throws: ``SystemError`` (``SystemError/Operation/read``, no path: the caller knows it).
    package static func read(_ fd: Int32) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw SystemError(.read, errno: Glibc.errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
