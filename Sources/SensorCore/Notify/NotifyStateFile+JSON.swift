extension NotifyStateFile {
    /// The file's JSON, keys sorted (targets and journals too), as the files written with
    /// Foundation's encoder had them.
    var json: JSONValue {
        .object(JSONObject([
            .init(key: "targets", value: .object(JSONObject(targets.sorted { $0.key < $1.key }.map {
                .init(key: $0.key, value: $0.value.json)
            }))),
            .init(key: "version", value: .integer(Int64(version))),
        ]))
    }

    /// The file's content from its JSON; keys a newer version added are ignored.
    ///
    /// - Throws: ``ConfigErrors`` at the key path (`targets.ops.cursors.local: expected a string, found a number`).
    static func decode(_ bytes: [UInt8], path: String) throws(ConfigErrors) -> NotifyStateFile {
        try JSON5Document.decode(bytes, path: path) { node -> NotifyStateFile? in
            guard let top = node.object(), let version = top.required("version")?.integer() else { return nil }
            var file = NotifyStateFile()
            file.version = Int(clamping: version)
            guard version == currentVersion else { return file }
            guard let targets = top.required("targets")?.object() else { return nil }
            var valid = true
            for key in targets.members.keys {
                guard let target = targets[key].flatMap(Target.init(json:)) else {
                    valid = false
                    continue
                }
                file.targets[key] = target
            }
            return valid ? file : nil
        }
    }
}

extension NotifyStateFile.Target {
    /// The target's JSON: its cursors by journal, sorted, and an alertmanager target's
    /// firing alerts.
    var json: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "cursors", value: .object(JSONObject(cursors.sorted { $0.key < $1.key }.map {
                .init(key: $0.key, value: .string($0.value))
            })))
        ]
        if let firing { members.append(.init(key: "firing", value: .array(firing.map(\.json)))) }
        return .object(JSONObject(members))
    }

    /// The target from its JSON, or nil after reporting what is wrong.
    init?(json node: ConfigNode) {
        guard let o = node.object(), let cursorObject = o.required("cursors")?.object() else { return nil }
        var cursors: [String: String] = [:]
        var valid = true
        for key in cursorObject.members.keys {
            guard let cursor = cursorObject[key]?.string() else {
                valid = false
                continue
            }
            cursors[key] = cursor
        }
        var firing: [AlertmanagerAlert]?
        if let list = o["firing"], list.value != .null {
            let alerts = list.array()?.map(AlertmanagerAlert.init(json:))
            guard let alerts, !alerts.contains(nil) else { return nil }
            firing = alerts.compactMap { $0 }
        }
        guard valid else { return nil }
        self.init(cursors: cursors, firing: firing)
    }
}
