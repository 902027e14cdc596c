#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole small file (configuration, scenario, CSV) as UTF-8 text.
package enum TextFile {
    /// Why a file could not be read, in words (``ErrnoText``).
    package struct ReadError: Error, Hashable {
        package var message: String
    }

    /// The file's text; invalid UTF-8 is an error rather than silently repaired.
    ///
    /// Only regular files are read: a FIFO or a device in place of a configuration would
    /// block or never end, and a reload blocked there would stall the whole daemon.
    package static func contents(of path: String) throws(ReadError) -> String {
        try text(bytes(of: path))
    }

    /// The file's bytes (a regular file only, as for ``contents(of:)``).
    package static func bytes(of path: String) throws(ReadError) -> [UInt8] {
        // O_NONBLOCK so that opening a FIFO without a writer returns at once.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let err = errno
            // `ls` shows a dangling link as present; say where it points.
            if err == ENOENT, let target = linkTarget(path) {
                throw ReadError(message: "\(ErrnoText.words(err)) (a symbolic link to \(target))")
            }
            throw ReadError(message: ErrnoText.words(err))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ReadError(message: errnoText()) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadError(message: ErrnoText.words(EISDIR))
        case S_IFIFO: throw ReadError(message: "not a regular file (a FIFO)")
        case S_IFSOCK: throw ReadError(message: "not a regular file (a socket)")
        default: throw ReadError(message: "not a regular file (a device)")
        }
        do {
            return try WholeFile.read(fd)
        } catch {
            throw ReadError(message: ErrnoText.words(error.errno))
        }
    }

    /// `bytes` as text; invalid UTF-8 is the same error as for a file.
    package static func text(_ bytes: [UInt8]) throws(ReadError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ReadError(message: "not valid UTF-8 text")
        }
        return text
    }

    private static func errnoText() -> String { ErrnoText.words(errno) }

    /// Where the symbolic link at `path` points, or nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
