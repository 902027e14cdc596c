/// The content of `state.json`: a format version and the firing alerts.
///
/// The version lets a later sensorwatch read or set aside an older file knowingly.
struct StateFile: Codable, Hashable, Sendable {
    /// The format this code writes.
    static let currentVersion = 1

    var version: Int
    var alerts: [PersistedAlert]
}
