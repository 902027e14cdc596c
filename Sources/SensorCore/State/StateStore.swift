#if canImport(Glibc)
import Glibc
#endif

/// Keeps the firing alerts in `state.json` so a restart neither repeats a `firing` nor
/// forgets a `resolved` (SPEC §8).
///
/// Saves are atomic (``AtomicFileWriter``): a temp file is written, fsynced and renamed over
/// `state.json`, then the directory is fsynced, so a crash leaves the old or the new file,
/// never half of one. A file
/// that cannot be read or decoded is renamed aside (`state.json.corrupt-<UTC time>`) and
/// reported in the load result: losing kept state must never stop the daemon. One process
/// writes the file; the store is not safe for several writers.
public struct StateStore: Sendable {
    /// The directory used when `$STATE_DIRECTORY` is not set.
    public static let defaultDirectory = "/var/lib/sensorwatch"
    /// The file name inside the directory.
    public static let fileName = "state.json"

    /// The directory the file lives in.
    public let directory: String

    /// - Parameter directory: where `state.json` lives; created (one level) on first save.
    public init(directory: String) {
        self.directory = directory
    }

    /// The directory from systemd's `StateDirectory=`: the first entry of
    /// `$STATE_DIRECTORY` (colon-separated when the unit names several), else
    /// `defaultDirectory`.
    public static func directory(fromEnvironment value: String?) -> String {
        guard let value, let first = value.split(separator: ":").first, !first.isEmpty else {
            return defaultDirectory
        }
        return String(first)
    }

    /// `directory(fromEnvironment:)` applied to this process's `$STATE_DIRECTORY`.
    public static func directoryFromEnvironment() -> String {
        directory(fromEnvironment: getenv("STATE_DIRECTORY").map { String(cString: $0) })
    }

    /// The full path of `state.json`.
    public var path: String { directory + "/" + Self.fileName }

    /// Reads the kept alerts. Never throws: a missing file gives no alerts and no problem;
    /// an unreadable or corrupt one gives no alerts, is set aside and is described in
    /// `problem`.
    ///
    /// - Parameter now: wall-clock seconds since the epoch, for the set-aside file's name.
    public func load(now: Double = WallClock.seconds()) -> LoadResult {
        let (bytes, err) = readAll(path)
        if err == ENOENT { return LoadResult(alerts: []) }
        if err != 0 { return setAside(reason: "cannot read: " + ErrnoText.words(err), now: now) }
        let file: StateFile
        do {
            file = try StateFile.decode(bytes, path: path)
        } catch {
            return setAside(reason: "not a valid state file (\(error.errors.first?.locatedMessage ?? "unreadable"))", now: now)
        }
        guard file.version == StateFile.currentVersion else {
            return setAside(reason: "unknown format version \(file.version)", now: now)
        }
        return LoadResult(alerts: file.alerts)
    }

    /// Replaces the kept alerts atomically (sorted by rule, then sensor, so the file is
    /// stable).
    public func save(_ alerts: [PersistedAlert]) throws(SaveError) {
        let sorted = alerts.sorted { $0.key < $1.key }
        let text = JSONWriter.text(StateFile(version: StateFile.currentVersion, alerts: sorted).json, layout: .pretty)
        do {
            try writer.write(Array((text + "\n").utf8))
        } catch {
            throw SaveError.write(error)
        }
    }

    /// The state file's options: durable, a visible `.tmp` temporary, the umask's mode (the
    /// daemon's own file), the directory created on first save.
    private var writer: AtomicFileWriter {
        AtomicFileWriter(
            path: path,
            options: AtomicFileWriter.Options(
                mode: .umasked(0o644), temporary: .named(path + ".tmp"), durable: true, createsDirectory: true))
    }

    private func setAside(reason: String, now: Double) -> LoadResult {
        var target = path + ".corrupt-" + Self.utcStamp(now)
        var n = 1
        while access(target, F_OK) == 0 {
            n += 1
            target = path + ".corrupt-" + Self.utcStamp(now) + "-\(n)"
        }
        if rename(path, target) != 0 {
            let why = ErrnoText.words(errno)
            return LoadResult(
                alerts: [], problem: "\(path): \(reason); starting without kept alert state; "
                    + "could not set it aside: \(why)")
        }
        return LoadResult(
            alerts: [], problem: "\(path): \(reason); moved to \(target), starting without kept alert state",
            setAsidePath: target)
    }

    private static func utcStamp(_ seconds: Double) -> String {
        var t = time_t(seconds.rounded(.down))
        var tm = tm()
        gmtime_r(&t, &tm)
        var buf = [CChar](repeating: 0, count: 32)
        let n = strftime(&buf, buf.count, "%Y%m%dT%H%M%SZ", &tm)
        return String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The file's bytes, or the errno of the failed open or read (0 on success).
    private func readAll(_ path: String) -> ([UInt8], Int32) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return ([], errno) }
        defer { close(fd) }
        do {
            return (try WholeFile.read(fd), 0)
        } catch {
            return ([], error.errno)
        }
    }
}
