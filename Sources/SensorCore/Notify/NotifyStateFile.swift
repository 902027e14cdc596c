/// The content of `notify.json`: per target (by ``NotifyTarget/key``), its position in each
/// journal it follows (SPEC §17).
public struct NotifyStateFile: Hashable, Sendable {
    /// The format this code writes.
    public static let currentVersion = 1

    /// One target's kept state.
    public struct Target: Hashable, Sendable {
        /// The sd-journal cursor of the last entry done with, per journal (`local`, or the
        /// `--directory` path).
        public var cursors: [String: String]
        /// An alertmanager target's firing alerts (re-sent every minute); absent for others.
        public var firing: [AlertmanagerAlert]?

        public init(cursors: [String: String] = [:], firing: [AlertmanagerAlert]? = nil) {
            self.cursors = cursors
            self.firing = firing
        }
    }

    /// The format version.
    public var version: Int
    /// Targets by key.
    public var targets: [String: Target]

    public init(targets: [String: Target] = [:]) {
        self.version = Self.currentVersion
        self.targets = targets
    }

    /// The cursor of target `key` in journal `journal`, if kept.
    public func cursor(target key: String, journal: String) -> String? { targets[key]?.cursors[journal] }

    /// Target `key`'s kept firing alerts.
    public func firing(target key: String) -> [AlertmanagerAlert] { targets[key]?.firing ?? [] }

    /// Keeps `alerts` as target `key`'s firing alerts (written with the next cursor).
    public mutating func setFiring(_ alerts: [AlertmanagerAlert], target key: String) {
        targets[key, default: Target()].firing = alerts
    }

    /// Keeps `cursor` as target `key`'s position in journal `journal`.
    public mutating func setCursor(_ cursor: String, target key: String, journal: String) {
        targets[key, default: Target()].cursors[journal] = cursor
    }
}
