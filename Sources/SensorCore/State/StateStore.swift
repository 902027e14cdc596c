#if canImport(Glibc)
import Glibc
#endif
public import SensorRuntime

/// Keeps the firing alerts in `state.json` so a restart neither repeats a `firing` nor
/// forgets a `resolved` (SPEC §8).
///
/// Kept by the one ``JSONFileStore``: saves atomic and durable, a file that cannot be read or
/// decoded renamed aside (`state.json.corrupt-<UTC time>`) and reported in the load result
/// (losing kept state must never stop the daemon). One process writes the file.
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
    /// - Parameter now: the time of day, for the set-aside file's name.
    public func load(now: WallTime = SystemWallClock().now) -> LoadResult {
        let loaded = store.load(now: now)
        return LoadResult(
            alerts: loaded.document?.alerts ?? [], eventLog: loaded.document?.eventLog ?? [:],
            problem: store.describe(loaded, as: "state file", then: "starting without kept alert state"),
            setAsidePath: loaded.setAsidePath)
    }

    /// Replaces the kept alerts atomically (sorted by rule, then sensor, so the file is
    /// stable).
    /// `eventLog`: the last System Event Log record seen of each BMC (SPEC §23).
    public func save(_ alerts: [PersistedAlert], eventLog: [String: Int] = [:]) throws(SaveError) {
        let sorted = alerts.sorted { $0.key < $1.key }
        do {
            try store.save(StateFile(version: StateFile.currentVersion, alerts: sorted, eventLog: eventLog))
        } catch {
            throw SaveError.write(error)
        }
    }

    /// The file, with a visible `.tmp` temporary (a crash leaves at most that one behind).
    private var store: JSONFileStore<StateFile> { JSONFileStore(path: path, temporary: .named(path + ".tmp")) }
}
