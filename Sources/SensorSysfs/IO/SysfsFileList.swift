/// The names of files in one directory, for one ``SysfsIO/readFiles(in:names:into:stride:lengths:progress:)``
/// call: packed back to back, each ending in NUL, as the C loop takes them (no C string made
/// per name, no `String` kept per name).
public struct SysfsFileList: Sendable {
    /// The names, each followed by a NUL.
    private(set) var bytes: [UInt8] = []
    /// Where each name starts in ``bytes``.
    private var starts: [Int] = []

    /// No names.
    public init() {}

    /// How many names there are.
    public var count: Int { starts.count }

    /// Adds the name `head` + `tail` (`temp1_` and `max`: the caller makes no string of it).
    /// A file name holds no NUL; one here would shift every later name in the C loop.
    public mutating func append(_ head: String, _ tail: String = "") {
        let start = bytes.count
        starts.append(start)
        bytes.append(contentsOf: head.utf8)
        bytes.append(contentsOf: tail.utf8)
        // Checked on the bytes copied, not by walking both strings' UTF-8 views first
        // (figures: bench/README.md, "Instructions behind the code's shortcuts").
        precondition(!bytes[start...].contains(0), "a file name with a NUL")
        bytes.append(0)
    }

    /// The name at `index` (for the stall watch and the calls made file by file).
    public subscript(index: Int) -> String {
        let end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count - 1
        return String(decoding: bytes[starts[index]..<end], as: UTF8.self)
    }
}
