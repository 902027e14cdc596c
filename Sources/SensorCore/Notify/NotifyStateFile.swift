/// The content of `notify.json`: per target (by ``NotifyTarget/key``), its position in each
/// journal it follows (SPEC §17).
public struct NotifyStateFile: Codable, Hashable, Sendable {
    /// The format this code writes.
    public static let currentVersion = 1

    /// One target's kept state.
    public struct Target: Codable, Hashable, Sendable {
        /// The sd-journal cursor of the last entry done with, per journal (`local`, or the
        /// `--directory` path).
        public var cursors: [String: String]

        public init(cursors: [String: String] = [:]) { self.cursors = cursors }
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

    /// Keeps `cursor` as target `key`'s position in journal `journal`.
    public mutating func setCursor(_ cursor: String, target key: String, journal: String) {
        targets[key, default: Target()].cursors[journal] = cursor
    }
}
