#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime

/// Where `run` keeps its runtime files (`status.json`, `live.sock`) and where `status`,
/// `watch`, `top` and `mqtt` look for them (SPEC §19, §22).
///
/// One rule for both sides, so a daemon started by hand (`make run`) and a client started
/// beside it meet without either being told a path: `$RUNTIME_DIRECTORY` (the unit's
/// `RuntimeDirectory=`, first entry), else `/run/sensorwatch` for root, else
/// `$XDG_RUNTIME_DIR/sensorwatch`. A client that is not root also looks in
/// `/run/sensorwatch`, where the system's service keeps them.
public struct RuntimeDirectory: Sendable, Equatable {
    /// The directory of the system's service.
    public static let system = "/run/sensorwatch"

    /// The directory's absolute path.
    public let path: String

    /// - Parameter path: the directory.
    public init(path: String) {
        self.path = path
    }

    /// The file `name` inside the directory.
    public func file(_ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// The daemon's directory by the rule, from the values given (testable without the
    /// process's environment); nil when none applies (not root and no `$XDG_RUNTIME_DIR`).
    public static func daemon(
        runtimeDirectory: String?, isRoot: Bool, xdgRuntimeDirectory: String?
    ) -> RuntimeDirectory? {
        if let runtimeDirectory, let first = runtimeDirectory.split(separator: ":").first, first.hasPrefix("/") {
            return RuntimeDirectory(path: String(first))
        }
        if isRoot { return RuntimeDirectory(path: system) }
        if let xdg = xdgRuntimeDirectory, xdg.hasPrefix("/") {
            return RuntimeDirectory(path: RuntimeDirectory(path: xdg).file("sensorwatch"))
        }
        return nil
    }

    /// Where a client looks, in order: the daemon's directory by the rule, then (for a user
    /// who is not root) the system service's.
    public static func clientCandidates(
        runtimeDirectory: String?, isRoot: Bool, xdgRuntimeDirectory: String?
    ) -> [RuntimeDirectory] {
        var candidates: [RuntimeDirectory] = []
        if let own = daemon(
            runtimeDirectory: runtimeDirectory, isRoot: isRoot, xdgRuntimeDirectory: xdgRuntimeDirectory)
        {
            candidates.append(own)
        }
        if !candidates.contains(RuntimeDirectory(path: system)) { candidates.append(RuntimeDirectory(path: system)) }
        return candidates
    }

    /// Makes the directory, mode 0755 whatever the umask (clients of other users read the
    /// status file there), when it is missing: outside systemd nobody made `/run/sensorwatch`
    /// or `$XDG_RUNTIME_DIR/sensorwatch` for `run`. Returns why it could not, for the log;
    /// nil when it exists or was made.
    public func makeIfMissing() -> String? {
        if mkdir(path, 0o755) == 0 {
            // The umask (the unit's is 0077) took bits mkdir was given.
            return chmod(path, 0o755) == 0 ? nil : "cannot make \(path) readable to all: \(ErrnoText.words(errno))"
        }
        let why = errno
        return why == EEXIST ? nil : "cannot make the runtime directory \(path): \(ErrnoText.words(why))"
    }

    /// ``daemon(runtimeDirectory:isRoot:xdgRuntimeDirectory:)`` for this process.
    public static func forDaemon() -> RuntimeDirectory? {
        daemon(
            runtimeDirectory: environment("RUNTIME_DIRECTORY"), isRoot: geteuid() == 0,
            xdgRuntimeDirectory: environment("XDG_RUNTIME_DIR"))
    }

    /// The file `name` a client should open: the first candidate directory that has it,
    /// else the first candidate's (so an error names where the daemon would have put it).
    public static func clientFile(_ name: String) -> String {
        let candidates = clientCandidates(
            runtimeDirectory: environment("RUNTIME_DIRECTORY"), isRoot: geteuid() == 0,
            xdgRuntimeDirectory: environment("XDG_RUNTIME_DIR"))
        for candidate in candidates where access(candidate.file(name), F_OK) == 0 {
            return candidate.file(name)
        }
        return (candidates.first ?? RuntimeDirectory(path: system)).file(name)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).flatMap { String(validatingCString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
