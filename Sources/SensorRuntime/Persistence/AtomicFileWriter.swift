#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Replaces one file atomically: a reader, a crash or a failed write sees the old file or
/// the whole new one, never part of one. The one way the project writes a file that
/// something else reads while it runs.
///
/// The text is written to a temporary file in the same directory (a rename never crosses
/// file systems), given its mode, and renamed over the file. What differs between files is
/// in ``Options``; the writers so far and the ones to come use:
///
/// | file | options |
/// | --- | --- |
/// | `state.json` (alert state, SPEC §8) | `.durable`, `temporary: .named(path + ".tmp")`, `mode: .umasked(0o644)`, `createsDirectory` |
/// | the Prometheus textfile (SPEC §12) | `temporary: .named(hidden)`, `reusesReplaced`, not durable |
/// | a recording (`record --output`) | `.durable` (a unique hidden temporary) |
/// | a plot (`simulate --plot`) | the defaults |
/// | the status file (SPEC §19) | `temporary: .named(hidden sibling)`, `reusesReplaced`, not durable: like the metrics file, it describes the running process |
/// | notification cursors (SPEC §17) | `.durable`: a lost cursor sends notifications twice |
///
/// Not for several writers of one file at once, except with a `.unique` temporary.
public struct AtomicFileWriter: Sendable {
    /// How the file is written.
    public struct Options: Sendable, Hashable {
        /// The file's permissions.
        public enum Mode: Sendable, Hashable {
            /// Exactly these, whatever the umask (set with `fchmod`): for files other users'
            /// programs read (node_exporter under a unit's `UMask=0077`).
            case exact(UInt32)
            /// These less the umask, as `open(2)` makes them: for the daemon's own files.
            case umasked(UInt32)
        }

        /// Where the new text waits for the rename.
        public enum Temporary: Sendable, Hashable {
            /// `.NAME.tmp-XXXXXX` next to the file, six random characters, created
            /// exclusively: two writers never share one.
            case unique
            /// This path (in the file's directory); whatever is there first is removed, a
            /// symbolic link is never followed. Needed for ``Options/reusesReplaced``, and
            /// where the name must be known (to remove it at a stop, to keep it out of a
            /// directory scan such as node_exporter's `*.prom`).
            case named(String)
        }

        /// The file's permissions; `.exact(0o644)` by default.
        public var mode: Mode
        /// Where the new text is written first; `.unique` by default.
        public var temporary: Temporary
        /// fsync the file before the rename and the directory after it, so the new file
        /// survives a power cut. Off for files that describe the running process only.
        public var durable: Bool
        /// Exchange the two names (`renameat2` with `RENAME_EXCHANGE`) instead of renaming:
        /// the temporary name then keeps the replaced file, which the next write overwrites
        /// where it stands, its pages reused — about half of a write's kernel time for the
        /// metrics file at a thousand sensors. Only while nobody else has that file open (a
        /// reader still at it gets a new file), and a plain rename where the file system
        /// cannot exchange or lease. Needs a `.named` temporary.
        public var reusesReplaced: Bool
        /// Create the file's directory (one level, mode 0755) when it is missing.
        public var createsDirectory: Bool

        /// Options of the given fields; the defaults write mode 0644 through a unique temporary file, not durably.
        public init(
            mode: Mode = .exact(0o644), temporary: Temporary = .unique, durable: Bool = false,
            reusesReplaced: Bool = false, createsDirectory: Bool = false
        ) {
            self.mode = mode
            self.temporary = temporary
            self.durable = durable
            self.reusesReplaced = reusesReplaced
            self.createsDirectory = createsDirectory
        }

        /// A file that must survive a power cut once written (a recording, a cursor).
        public static let durable = Options(durable: true)
    }

    /// The file written.
    public let path: String
    /// How.
    public let options: Options

    /// A writer of the file at `path`; `reusesReplaced` needs a `.named` temporary (a precondition).
    public init(path: String, options: Options = Options()) {
        precondition(
            !options.reusesReplaced || options.temporary != .unique, "reusing the replaced file needs a named temporary"
        )
        self.path = path
        self.options = options
    }

    /// The directory the file is in.
    public var directory: String { ConfigPath.directory(of: path) }

    /// Replaces the file with `text`.
    public func write(_ text: String) throws(SystemError) {
        try write(Array(text.utf8))
    }

    /// Replaces the file with `bytes`.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let result: Result<Void, SystemError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(SystemError) in try write(buffer) }
        }
        try result.get()
    }

    /// Replaces the file with `bytes`.
    ///
    /// - Throws: ``SystemError`` of the step that failed (``SystemError/Operation/open``,
    ///   `.write`, … `.rename` on the file, the others on the temporary file or the
    ///   directory). Nothing is left behind then (the temporary file is removed) and the old
    ///   file is untouched.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SystemError) {
        if options.createsDirectory, mkdir(directory, 0o755) != 0, Glibc.errno != EEXIST {
            throw SystemError(.createDirectory, path: directory, errno: Glibc.errno)
        }
        let (fd, temporary) = try openTemporary()
        var failure: SystemError?
        func fail(_ step: SystemError.Operation, _ file: String) {
            failure = SystemError(step, path: file, errno: Glibc.errno)
        }
        if !FileDescriptorWriter.writeAll(fd, bytes) {
            fail(.write, temporary)
        } else if options.reusesReplaced, ftruncate(fd, off_t(bytes.count)) != 0 {
            fail(.truncate, temporary)
        } else if case .exact(let mode) = options.mode, fchmod(fd, mode) != 0 {
            fail(.chmod, temporary)
        } else if options.durable, fsync(fd) != 0 {
            fail(.fsync, temporary)
        }
        close(fd)
        if failure == nil {
            // No file yet (the first write), or no exchange here: a rename.
            let exchanged = options.reusesReplaced && sw_rename_exchange(temporary, path) == 0
            if !exchanged, rename(temporary, path) != 0 { fail(.rename, path) }
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // Without this the rename itself may not survive a power cut.
        if options.durable {
            let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard dfd >= 0 else { throw SystemError(.fsyncDirectory, path: directory, errno: Glibc.errno) }
            defer { close(dfd) }
            if fsync(dfd) != 0 { throw SystemError(.fsyncDirectory, path: directory, errno: Glibc.errno) }
        }
    }

    /// Removes the file and a named temporary file (a stop: a stopped daemon's metrics and
    /// status files show as absent, not frozen).
    public func remove() {
        unlink(path)
        if case .named(let temporary) = options.temporary { unlink(temporary) }
    }

    /// Whether a file can be written at `path` (its directory exists and is writable, and
    /// `path` is not a directory); false with `errno` set otherwise. Asked before a long
    /// run that writes at its end.
    public static func canCreate(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            Glibc.errno = EISDIR
            return false
        }
        return access(ConfigPath.directory(of: path), W_OK) == 0
    }

    /// Six random letters and digits.
    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<6).map { _ in alphabet.randomElement()! })
    }

    /// Whether `fd` is a file this writer may overwrite in place: a regular file, its only
    /// name the temporary one, owned by us. In a directory others can write to, anything
    /// else at the name may be planted (a hard link to someone's file, a FIFO to wedge us).
    private static func isOwnPlainFile(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFREG && info.st_nlink == 1 && info.st_uid == geteuid()
    }

    /// The temporary file, open for writing, and its path.
    private func openTemporary() throws(SystemError) -> (Int32, String) {
        let create: mode_t =
            switch options.mode {
            case .exact(let mode), .umasked(let mode): mode
            }
        switch options.temporary {
        case .unique:
            // Like mkstemp, but created with the mode asked for (mkstemp's is 0600).
            for _ in 0..<100 {
                let temporary = ConfigPath.hiddenSibling(of: path, suffix: ".tmp-" + Self.randomSuffix())
                let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, create)
                if fd >= 0 { return (fd, temporary) }
                if Glibc.errno != EEXIST { throw SystemError(.open, path: temporary, errno: Glibc.errno) }
            }
            throw SystemError(.open, path: ConfigPath.hiddenSibling(of: path, suffix: ".tmp-*"), errno: EEXIST)
        case .named(let temporary):
            if options.reusesReplaced {
                // O_NONBLOCK: a FIFO planted at the name must not hang the open.
                let fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, create)
                if fd >= 0, Self.isOwnPlainFile(fd), sw_is_sole_opener(fd) == 1 { return (fd, temporary) }
                if fd >= 0 { close(fd) }
            }
            // Not reusable (still read, no leases, not a file of our own: a symbolic link,
            // a hard link to another file, a FIFO is removed, not written through): a new
            // file.
            unlink(temporary)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, create)
            guard fd >= 0 else { throw SystemError(.open, path: temporary, errno: Glibc.errno) }
            return (fd, temporary)
        }
    }
}
