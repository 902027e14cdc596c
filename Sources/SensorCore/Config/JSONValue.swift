/// A JSON5 document decoded into a plain tree, so loaders can walk it by hand and report
/// every problem with its key path instead of stopping at the first `DecodingError`.
indirect enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction that fits an `Int64` (seeds need every bit).
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys are unordered: the decoder hands them over as a dictionary.
    case object([String: JSONValue])
    /// A number the decoder cannot represent (such as `1e400`).
    case unrepresentableNumber

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONValue] = [:]
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(array)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? single.decode(Double.self) {
            self = .number(d)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            // Every other JSON scalar was tried above; only an out-of-range number is left.
            self = .unrepresentableNumber
        }
    }

    /// How messages name this kind of value: `expected a number, found a string`.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number, .unrepresentableNumber: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
