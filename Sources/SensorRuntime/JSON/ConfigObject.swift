/// An object node whose members a loader looks up by key.
package struct ConfigObject {
    package let node: ConfigNode
    package let members: JSONObject

    /// Member `key`, or nil when absent.
    package subscript(key: String) -> ConfigNode? {
        members[key].map { ConfigNode(value: $0, path: node.path(of: key), diagnostics: node.diagnostics) }
    }

    /// Member `key`; when absent, reports it missing and returns nil.
    package func required(_ key: String) -> ConfigNode? {
        guard let member = self[key] else {
            node.diagnostics.report(node.path(of: key), "required key is missing")
            return nil
        }
        return member
    }

    /// Whether member `key` is present.
    package func has(_ key: String) -> Bool { members[key] != nil }
}
