#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole small file (configuration, scenario, CSV) as UTF-8 text.
enum TextFile {
    /// Why a file could not be read, as `strerror` words it.
    struct ReadError: Error, Hashable {
        var message: String
    }

    /// The file's text; invalid UTF-8 is an error rather than silently repaired.
    static func contents(of path: String) throws(ReadError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(message: errnoText()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(message: errnoText())
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return try text(bytes)
    }

    /// `bytes` as text; invalid UTF-8 is the same error as for a file.
    static func text(_ bytes: [UInt8]) throws(ReadError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReadError(message: "not valid UTF-8 text")
        }
        return text
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
