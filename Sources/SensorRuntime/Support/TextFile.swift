#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole small file (configuration, scenario, CSV) as UTF-8 text.
package enum TextFile {
    /// Why a file could not be read.
    package enum ReadError: Error, Hashable {
        /// A call failed (a directory's `open` as `EISDIR`).
        case system(SystemError)
        /// `open` found a symbolic link to nothing (`ENOENT`): where it points, since `ls`
        /// shows the link as present.
        case danglingLink(SystemError, target: String)
        /// Not a regular file: what it is instead (`a FIFO`, `a socket`, `a device`).
        case notRegular(String)
        /// The bytes are not UTF-8.
        case notText

        /// In words: `Permission denied`, `No such file or directory (a symbolic link to
        /// /etc/x)`, `not a regular file (a FIFO)`, `not valid UTF-8 text`.
        package var message: String {
            switch self {
            case .system(let error): error.reason
            case .danglingLink(let error, let target): "\(error.reason) (a symbolic link to \(target))"
            case .notRegular(let kind): "not a regular file (\(kind))"
            case .notText: "not valid UTF-8 text"
            }
        }
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
            let failure = SystemError(.open, path: path, errno: errno)
            if failure.errno == ENOENT, let target = linkTarget(path) {
                throw .danglingLink(failure, target: target)
            }
            throw .system(failure)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(SystemError(.call("fstat"), path: path, errno: errno)) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .system(SystemError(.open, path: path, errno: EISDIR))
        case S_IFIFO: throw .notRegular("a FIFO")
        case S_IFSOCK: throw .notRegular("a socket")
        default: throw .notRegular("a device")
        }
        do {
            return try WholeFile.read(fd)
        } catch {
            throw .system(SystemError(.read, path: path, errno: error.errno))
        }
    }

    /// `bytes` as text; invalid UTF-8 is the same error as for a file.
    package static func text(_ bytes: [UInt8]) throws(ReadError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .notText
        }
        return text
    }

    /// Where the symbolic link at `path` points, or nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
