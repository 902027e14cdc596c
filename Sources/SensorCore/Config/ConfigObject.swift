/// An object node whose members a loader looks up by key.
struct ConfigObject {
    let node: ConfigNode
    let members: JSONObject

    /// Member `key`, or nil when absent.
    subscript(key: String) -> ConfigNode? {
        members[key].map { ConfigNode(value: $0, path: node.path(of: key), diagnostics: node.diagnostics) }
    }

    /// Member `key`; when absent, reports it missing and returns nil.
    func required(_ key: String) -> ConfigNode? {
        guard let member = self[key] else {
            node.diagnostics.report(node.path(of: key), "required key is missing")
            return nil
        }
        return member
    }

    /// Whether member `key` is present.
    func has(_ key: String) -> Bool { members[key] != nil }
}
