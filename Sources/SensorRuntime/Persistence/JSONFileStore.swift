#if canImport(Glibc)
import Glibc
#endif

/// The one way a program keeps a JSON file across restarts: `state.json` (``StateStore``)
/// and `notify.json` (``NotifyStateStore``).
///
/// Saves are atomic and durable (``AtomicFileWriter``: a temporary written, fsynced and
/// renamed over the file, then the directory fsynced), so a crash leaves the old file or the
/// new one, never half of one; the directory is created on the first save. Loading never
/// throws: a missing file is the first start; a file that cannot be read or decoded, or is
/// of another format version, is renamed aside (`<file>.corrupt-<UTC time>`, so a person
/// can still look at it and no save overwrites it) and the problem is returned, typed:
/// losing kept state must never stop a program. One process writes the file.
package struct JSONFileStore<Document: KeptJSONDocument>: Sendable {
    /// Why a file was not used.
    package enum LoadProblem: Error, Hashable, Sendable, CustomStringConvertible {
        /// It could not be read: the failed `open` or `read`.
        case unreadable(SystemError)
        /// It is not a valid document: the first error at its key path.
        case invalid(String)
        /// It is of a format version this code does not know.
        case unknownVersion(Int)

        /// `cannot read: Permission denied`, `not valid (alerts[0].since: …)`, `unknown format version 9`.
        package var description: String {
            switch self {
            case .unreadable(let failure): "cannot read: " + failure.reason
            case .invalid(let why): "not valid (\(why))"
            case .unknownVersion(let version): "unknown format version \(version)"
            }
        }
    }

    /// What loading found.
    package struct Loaded: Sendable {
        /// The kept document; nil when there is none or it was not usable.
        package var document: Document?
        /// Why the file was not used; nil when it was, or was absent.
        package var problem: LoadProblem?
        /// Where the unusable file was moved to; nil when it was not, or could not be.
        package var setAsidePath: String?
        /// Why it could not be moved aside, when it could not.
        package var setAsideFailure: String?
    }

    /// The file.
    package let path: String
    private let temporary: AtomicFileWriter.Options.Temporary

    /// - Parameters:
    ///   - path: the file.
    ///   - temporary: the temporary a save writes first (a fixed name leaves nothing behind
    ///     but one file after a crash; a unique one lets saves overlap).
    package init(path: String, temporary: AtomicFileWriter.Options.Temporary = .unique) {
        self.path = path
        self.temporary = temporary
    }

    /// Reads the file; an unusable one is set aside.
    ///
    /// - Parameter now: the time of day, for the set-aside file's name.
    package func load(now: WallTime = SystemWallClock().now) -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let failure = SystemError(.open, path: path, errno: errno)
            return failure.errno == ENOENT ? Loaded() : setAside(.unreadable(failure), now: now)
        }
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(fd)
            close(fd)
        } catch {
            close(fd)
            return setAside(.unreadable(SystemError(.read, path: path, errno: error.errno)), now: now)
        }
        let document: Document
        do {
            document = try Document.decode(bytes, path: path)
        } catch {
            return setAside(.invalid(error.errors.first?.locatedMessage ?? "unreadable"), now: now)
        }
        guard document.version == Document.currentVersion else {
            return setAside(.unknownVersion(document.version), now: now)
        }
        return Loaded(document: document)
    }

    /// The log line for what loading found, nil when there is nothing to say:
    /// `PATH: not a valid state file (why); moved to PATH.corrupt-…, starting without kept alert state`.
    ///
    /// - Parameters:
    ///   - name: what the file is to a person (`state file`).
    ///   - consequence: what the program does without it (`starting afresh`).
    package func describe(_ loaded: Loaded, as name: String, then consequence: String) -> String? {
        guard let problem = loaded.problem else { return nil }
        let reason: String
        switch problem {
        case .invalid(let why): reason = "not a valid \(name) (\(why))"
        default: reason = problem.description
        }
        if let target = loaded.setAsidePath { return "\(path): \(reason); moved to \(target), \(consequence)" }
        return "\(path): \(reason); \(consequence); could not set it aside: \(loaded.setAsideFailure ?? "unknown")"
    }

    /// Replaces the file with `document`, atomically and durably.
    package func save(_ document: Document) throws(SystemError) {
        let text = JSONWriter.text(document.json, layout: .pretty) + "\n"
        try AtomicFileWriter(
            path: path,
            options: AtomicFileWriter.Options(
                mode: .umasked(0o644), temporary: temporary, durable: true, createsDirectory: true)
        ).write(Array(text.utf8))
    }

    private func setAside(_ problem: LoadProblem, now: WallTime) -> Loaded {
        let stamp = TimeText.format(now.seconds, "%Y%m%dT%H%M%SZ")
        var target = path + ".corrupt-" + stamp
        var n = 1
        while access(target, F_OK) == 0 {
            n += 1
            target = path + ".corrupt-" + stamp + "-\(n)"
        }
        guard rename(path, target) == 0 else {
            return Loaded(problem: problem, setAsideFailure: ErrnoText.words(errno))
        }
        return Loaded(problem: problem, setAsidePath: target)
    }
}
