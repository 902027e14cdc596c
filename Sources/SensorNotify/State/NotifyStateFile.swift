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
        /// An exec target's alerts held back by silences (SPEC §21), per journal; absent
        /// when none is held.
        public var held: [String: [NotifyEvent]]?
        /// An alertmanager target's silences created there: Alertmanager's id by
        /// sensorwatch's (SPEC §21); absent when none.
        public var silences: [String: String]?

        /// A target's state of the given fields; nil leaves a part out of the file.
        public init(
            cursors: [String: String] = [:], firing: [AlertmanagerAlert]? = nil, held: [String: [NotifyEvent]]? = nil,
            silences: [String: String]? = nil
        ) {
            self.cursors = cursors
            self.firing = firing
            self.held = held
            self.silences = silences
        }
    }

    /// The format version.
    public var version: Int
    /// Targets by key.
    public var targets: [String: Target]

    /// The state of the given targets, in the current format version.
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

    /// Moves what is kept under key `old` to key `new`, unless `new` has state of its own.
    public mutating func moveTarget(from old: String, to new: String) {
        guard targets[new] == nil, let kept = targets.removeValue(forKey: old) else { return }
        targets[new] = kept
    }

    /// Target `key`'s silences in Alertmanager, by sensorwatch's id.
    public func silences(target key: String) -> [String: String] { targets[key]?.silences ?? [:] }

    /// Keeps target `key`'s silences in Alertmanager.
    public mutating func setSilences(_ silences: [String: String], target key: String) {
        targets[key, default: Target()].silences = silences.isEmpty ? nil : silences
    }

    /// Target `key`'s alerts held back by silences in journal `journal`.
    public func held(target key: String, journal: String) -> [NotifyEvent] { targets[key]?.held?[journal] ?? [] }

    /// Keeps `events` as target `key`'s held-back alerts in journal `journal`.
    public mutating func setHeld(_ events: [NotifyEvent], target key: String, journal: String) {
        var all = targets[key, default: Target()].held ?? [:]
        all[journal] = events.isEmpty ? nil : events
        targets[key, default: Target()].held = all.isEmpty ? nil : all
    }

    /// Keeps `cursor` as target `key`'s position in journal `journal`.
    public mutating func setCursor(_ cursor: String, target key: String, journal: String) {
        targets[key, default: Target()].cursors[journal] = cursor
    }
}
