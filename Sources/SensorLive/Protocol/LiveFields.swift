package import SensorRuntime

/// Reads the members of one decoded object of the stream, each with the key path a
/// ``LiveProtocolError`` names: the one decoder of the protocol's objects, so every
/// message type says a wrong member the same way.
package struct LiveFields {
    /// The object's members.
    package let object: JSONObject
    /// Where it is, for errors: `change: sensors[2]`.
    package let path: String

    /// The members of `value`, which must be an object.
    package init(_ value: JSONValue?, path: String) throws(LiveProtocolError) {
        guard case .object(let o)? = value else {
            throw LiveProtocolError("\(path): expected an object, found \(value?.kindDescription ?? "nothing")")
        }
        object = o
        self.path = path
    }

    private func wrong(_ key: String, _ expected: String) -> LiveProtocolError {
        LiveProtocolError("\(path).\(key): expected \(expected), found \(object[key]?.kindDescription ?? "nothing")")
    }

    /// Whether the member is there (null counts as there).
    package func has(_ key: String) -> Bool { object[key] != nil }

    /// A string member.
    package func string(_ key: String) throws(LiveProtocolError) -> String {
        guard case .string(let s)? = object[key] else { throw wrong(key, "a string") }
        return s
    }

    /// A string member that may be null or absent.
    package func optionalString(_ key: String) throws(LiveProtocolError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw wrong(key, "a string or null")
        }
    }

    /// A boolean member; `absent` when it is left out.
    package func bool(_ key: String, absent: Bool? = nil) throws(LiveProtocolError) -> Bool {
        if object[key] == nil, let absent { return absent }
        guard case .bool(let b)? = object[key] else { throw wrong(key, "true or false") }
        return b
    }

    /// A number member that may be null or absent.
    package func optionalNumber(_ key: String) throws(LiveProtocolError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = Self.number(value, orNull: true) else { throw wrong(key, "a number or null") }
        return number
    }

    /// A number member.
    package func number(_ key: String) throws(LiveProtocolError) -> Double {
        guard let value = object[key], let number = Self.number(value, orNull: false), let v = number else {
            throw wrong(key, "a number")
        }
        return v
    }

    /// A whole-number member that fits an `Int`.
    package func integer(_ key: String) throws(LiveProtocolError) -> Int {
        guard case .integer(let i)? = object[key], let v = Int(exactly: i) else { throw wrong(key, "a whole number") }
        return v
    }

    /// An RFC 3339 time member (as status.json has them), as Unix seconds.
    package func time(_ key: String) throws(LiveProtocolError) -> Double {
        guard case .string(let s)? = object[key], let t = RFC3339.parse(s) else { throw wrong(key, "an RFC 3339 time") }
        return t
    }

    /// An RFC 3339 time member that may be null or absent.
    package func optionalTime(_ key: String) throws(LiveProtocolError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        default: return try time(key)
        }
    }

    /// An array member; nil when absent.
    package func optionalArray(_ key: String) throws(LiveProtocolError) -> [JSONValue]? {
        switch object[key] {
        case nil: return nil
        case .array(let a)?: return a
        default: throw wrong(key, "an array")
        }
    }

    /// An array of strings; nil when absent.
    package func optionalStrings(_ key: String) throws(LiveProtocolError) -> [String]? {
        guard let array = try optionalArray(key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            guard case .string(let s) = element else {
                throw LiveProtocolError("\(path).\(key)[\(i)]: expected a string, found \(element.kindDescription)")
            }
            strings.append(s)
        }
        return strings
    }

    /// Each element of array member `key` decoded by `decode` (given its value and path);
    /// nil when absent.
    package func optionalList<T>(
        _ key: String, _ decode: (JSONValue, String) throws(LiveProtocolError) -> T
    ) throws(LiveProtocolError) -> [T]? {
        guard let array = try optionalArray(key) else { return nil }
        var list: [T] = []
        list.reserveCapacity(array.count)
        for (i, element) in array.enumerated() { list.append(try decode(element, "\(path).\(key)[\(i)]")) }
        return list
    }

    /// A JSON number (or null, when `orNull`): `.some(nil)` for null; nil for any other kind.
    private static func number(_ value: JSONValue, orNull: Bool) -> Double?? {
        switch value {
        case .integer(let i): return .some(Double(i))
        case .number(let d) where d.isFinite: return .some(d)
        case .null where orNull: return .some(nil)
        default: return nil
        }
    }
}
