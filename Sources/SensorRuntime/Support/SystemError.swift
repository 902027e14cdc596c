/// A system call that failed: what was being done, on which file (if any), and the errno.
///
/// The one error type of the project that carries an errno, whatever failed: a step of an
/// atomic write, an sd-journal call, a socket's bind or connect, a thread's start, a read.
/// The errno is kept (a caller may tell `ENOENT` from `EACCES`); ``reason`` puts it in
/// words through ``ErrnoText``, and ``description`` in the sentence the operation asks for:
///
/// | operation | description |
/// | --- | --- |
/// | ``Operation/write`` | `write /run/sensorwatch/.m.prom.tmp: No space left on device` |
/// | ``Operation/rename`` | `rename to /run/sensorwatch/m.prom: Permission denied` |
/// | `.call("sd_journal_next")` | `/var/log/journal/remote: sd_journal_next: Bad message` |
/// | `.phrased("connect", as: "cannot connect to")` | `cannot connect to /run/sensorwatch/live.sock: Connection refused` |
///
/// Errors that carry no errno (a file that is not UTF-8, a FIFO in a file's place) are not
/// this type.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done when the call failed, and how a sentence says it.
    public struct Operation: Hashable, Sendable {
        /// The call or the step, as a person searching for it would write it: `open`,
        /// `rename`, `sd_journal_next`, `pthread_create`.
        public var name: String
        /// The words said before the path (`rename to`, `cannot connect to`); nil where the
        /// sentence names the call after the path instead (`PATH: sd_journal_next: …`).
        public var phrase: String?

        /// An operation of the given name and phrase.
        public init(name: String, phrase: String?) {
            self.name = name
            self.phrase = phrase
        }

        /// A call named after the path: `PATH: NAME: reason`, or `NAME: reason` without one.
        public static func call(_ name: String) -> Operation { Operation(name: name, phrase: nil) }

        /// A call said as `phrase` before the path: `PHRASE PATH: reason`, or
        /// `PHRASE: reason` without one.
        public static func phrased(_ name: String, as phrase: String) -> Operation {
            Operation(name: name, phrase: phrase)
        }

        /// Steps of a file's write (``AtomicFileWriter``) and read, each said by its name
        /// before the path (`write PATH: …`), a rename as `rename to PATH`: the path is then
        /// the file replaced, not the temporary one.
        public static let open = phrased("open", as: "open")
        /// See ``open``.
        public static let read = phrased("read", as: "read")
        /// See ``open``.
        public static let write = phrased("write", as: "write")
        /// See ``open``.
        public static let truncate = phrased("truncate", as: "truncate")
        /// See ``open``.
        public static let chmod = phrased("chmod", as: "chmod")
        /// See ``open``.
        public static let fsync = phrased("fsync", as: "fsync")
        /// See ``open``.
        public static let rename = phrased("rename", as: "rename to")
        /// See ``open``.
        public static let createDirectory = phrased("create directory", as: "create directory")
        /// See ``open``.
        public static let fsyncDirectory = phrased("fsync directory", as: "fsync directory")
    }

    /// What failed.
    public var operation: Operation
    /// The file, directory or socket it failed on; nil when there is none.
    public var path: String?
    /// The (positive) errno.
    public var errno: Int32

    /// The failure of `operation` on `path` with `errno`.
    public init(_ operation: Operation, path: String? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// Why, in words: `No space left on device`.
    public var reason: String { ErrnoText.words(errno) }

    /// The sentence of the operation: `rename to PATH: Permission denied`,
    /// `PATH: sd_journal_next: Bad message` (see the table above).
    public var description: String {
        guard let phrase = operation.phrase else { return callDescription }
        return (path.map { "\(phrase) \($0)" } ?? phrase) + ": " + reason
    }

    /// The call named after the path, whatever the operation's phrase: `PATH: NAME: reason`
    /// (`/var/lib/sensorwatch/state.json.tmp: write: No space left on device`), for a
    /// message that leads with the file.
    public var callDescription: String {
        (path.map { "\($0): " } ?? "") + "\(operation.name): \(reason)"
    }
}
