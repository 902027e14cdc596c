/// The content of `state.json`: a format version and the firing alerts.
///
/// The version lets a later sensorwatch read or set aside an older file knowingly.
struct StateFile: Hashable, Sendable {
    /// The format this code writes.
    static let currentVersion = 1

    var version: Int
    var alerts: [PersistedAlert]

    /// The file's JSON: keys sorted, as the files written with Foundation's encoder had them.
    var json: JSONValue {
        .object(JSONObject([
            .init(key: "alerts", value: .array(alerts.map(\.json))),
            .init(key: "version", value: .integer(Int64(version))),
        ]))
    }

    /// The file's content from its JSON; keys a newer version added are ignored.
    ///
    /// - Throws: ``ConfigErrors`` at the key path (`alerts[0].since: expected a number, found a string`).
    static func decode(_ bytes: [UInt8], path: String) throws(ConfigErrors) -> StateFile {
        try JSON5Document.decode(bytes, path: path) { node -> StateFile? in
            guard let top = node.object(), let version = top.required("version")?.integer() else { return nil }
            guard version == currentVersion else {
                return StateFile(version: Int(clamping: version), alerts: [])
            }
            guard let elements = top.required("alerts")?.array() else { return nil }
            let alerts = elements.map(PersistedAlert.init(json:))
            guard !alerts.contains(nil) else { return nil }
            return StateFile(version: Int(version), alerts: alerts.compactMap { $0 })
        }
    }
}

extension StateFile: KeptJSONDocument {}
