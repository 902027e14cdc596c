/// Building members of an object to write, in the documented order.
extension JSONObject.Member {
    /// `key: "text"`.
    package static func string(_ key: String, _ value: String) -> Self { Self(key: key, value: .string(value)) }
    /// `key: number`, or null.
    package static func number(_ key: String, _ value: Double?) -> Self {
        Self(key: key, value: value.map(JSONValue.number) ?? .null)
    }
    /// `key: "RFC 3339 time"`, or null.
    package static func time(_ key: String, _ value: Double?) -> Self {
        Self(key: key, value: value.map { .string(RFC3339.format($0)) } ?? .null)
    }
    /// `key: "text"`, or null.
    package static func optionalString(_ key: String, _ value: String?) -> Self {
        Self(key: key, value: value.map(JSONValue.string) ?? .null)
    }
}
