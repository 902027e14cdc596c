import SensorRuntime

extension NotifyStateFile {
    /// The file's JSON, keys sorted (targets and journals too), as the files written with
    /// Foundation's encoder had them.
    var json: JSONValue {
        .object(
            JSONObject([
                .init(
                    key: "targets",
                    value: .object(
                        JSONObject(
                            targets.sorted { $0.key < $1.key }.map {
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
    /// The target's JSON: its cursors by journal, sorted, an alertmanager target's firing
    /// alerts and silences, an exec target's held-back alerts by journal (SPEC §21).
    var json: JSONValue {
        func strings(_ map: [String: String]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) }))
        }
        var members: [JSONObject.Member] = [.init(key: "cursors", value: strings(cursors))]
        if let firing { members.append(.init(key: "firing", value: .array(firing.map(\.json)))) }
        if let held {
            members.append(
                .init(
                    key: "held",
                    value: .object(
                        JSONObject(
                            held.sorted { $0.key < $1.key }.map {
                                .init(key: $0.key, value: .array($0.value.map(\.stateJSON)))
                            }))))
        }
        if let silences { members.append(.init(key: "silences", value: strings(silences))) }
        return .object(JSONObject(members))
    }

    /// The target from its JSON, or nil after reporting what is wrong.
    init?(json node: ConfigNode) {
        guard let o = node.object(), let cursorNode = o.required("cursors") else { return nil }
        var valid = true
        /// An object of strings by key; nil (after reporting) when it is not one.
        func strings(_ node: ConfigNode) -> [String: String]? {
            guard let object = node.object() else { return nil }
            var map: [String: String] = [:]
            var whole = true
            for key in object.members.keys {
                guard let text = object[key]?.string() else {
                    whole = false
                    continue
                }
                map[key] = text
            }
            return whole ? map : nil
        }
        let cursors = strings(cursorNode)
        if cursors == nil { valid = false }
        var firing: [AlertmanagerAlert]?
        if let list = o["firing"], list.value != .null {
            let alerts = list.array()?.map(AlertmanagerAlert.init(json:))
            if let alerts, !alerts.contains(nil) { firing = alerts.compactMap { $0 } } else { valid = false }
        }
        var held: [String: [NotifyEvent]]?
        if let byJournal = o["held"], byJournal.value != .null {
            if let journals = byJournal.object() {
                var all: [String: [NotifyEvent]] = [:]
                for journal in journals.members.keys {
                    let events = journals[journal]?.array()?.map(NotifyEvent.init(stateJSON:))
                    if let events, !events.contains(nil) {
                        all[journal] = events.compactMap { $0 }
                    } else {
                        valid = false
                    }
                }
                held = all
            } else {
                valid = false
            }
        }
        var silences: [String: String]?
        if let ids = o["silences"], ids.value != .null {
            silences = strings(ids)
            if silences == nil { valid = false }
        }
        guard valid, let cursors else { return nil }
        self.init(cursors: cursors, firing: firing, held: held, silences: silences)
    }
}

extension NotifyStateFile: KeptJSONDocument {}
