import SensorRuntime

/// The content of `state.json`: a format version, the firing alerts and, per BMC, the last
/// System Event Log record seen (SPEC §23; `ipmiEventLog`, absent when there is none).
///
/// The version lets a later sensorwatch read or set aside an older file knowingly.
struct StateFile: Hashable, Sendable {
    /// The format this code writes.
    static let currentVersion = 1

    var version: Int
    var alerts: [PersistedAlert]
    /// The last SEL record id seen of each BMC (by its `<bmc>` id part).
    var eventLog: [String: Int] = [:]

    /// The file's JSON: keys sorted, as the files written with Foundation's encoder had them.
    var json: JSONValue {
        var members: [JSONObject.Member] = [.init(key: "alerts", value: .array(alerts.map(\.json)))]
        if !eventLog.isEmpty {
            let bmcs = eventLog.keys.sorted().map { JSONObject.Member(key: $0, value: .integer(Int64(eventLog[$0]!))) }
            members.append(.init(key: "ipmiEventLog", value: .object(JSONObject(bmcs))))
        }
        members.append(.init(key: "version", value: .integer(Int64(version))))
        return .object(JSONObject(members))
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
            var eventLog: [String: Int] = [:]
            if let kept = top["ipmiEventLog"] {
                guard let bmcs = kept.object() else { return nil }
                for member in bmcs.members.members {
                    guard let id = bmcs[member.key]?.integer() else { return nil }
                    eventLog[member.key] = Int(clamping: id)
                }
            }
            return StateFile(version: Int(version), alerts: alerts.compactMap { $0 }, eventLog: eventLog)
        }
    }
}

extension StateFile: KeptJSONDocument {}
