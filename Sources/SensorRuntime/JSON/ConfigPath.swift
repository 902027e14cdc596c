#if canImport(Glibc)
import Glibc
#endif

/// Path arithmetic for files named inside configuration files and on the command line
/// (lexical, no symlinks).
public enum ConfigPath {
    /// The directory part of `path` (`"."` for a bare file name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A hidden name beside `path` for a temporary file that replaces it: in the same
    /// directory (a rename never crosses file systems), `.` + its name + `suffix`.
    public static func hiddenSibling(of path: String, suffix: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + suffix
    }

    /// `path` as written in a file whose directory is `directory`: absolute paths stay,
    /// relative ones are joined to it. The result is relative when `directory` is.
    package static func resolve(_ path: String, against directory: String) -> String {
        normalize(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    /// `path` made absolute against the working directory.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return normalize(path) }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return normalize(cwd + "/" + path)
    }

    /// Drops `.` and empty components and folds `dir/..`, keeping leading `..` of a relative path.
    package static func normalize(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == ".." && isAbsolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
