/// A JSON5 document as a plain tree, so loaders can walk it by hand and report every problem
/// with its key path instead of stopping at the first one.
package indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number that is a whole number and fits an `Int64` (seeds need every bit).
    case integer(Int64)
    /// Any other number, also `Infinity` and `NaN` (JSON5 has them; loaders refuse them).
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order.
    case object(JSONObject)
    /// A number too large for a `Double` (such as `1e400`), reported at its key path.
    case unrepresentableNumber
    /// A number to be written as this text, which its maker spelled because no `Double` form
    /// is it: a time exact to the nanosecond (`3.000000001`), an event's `12.0` (SPEC §6).
    /// Only written, never parsed.
    case numberText(String)

    /// How messages name this kind of value: `expected a number, found a string`.
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number, .unrepresentableNumber, .numberText: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Whether this is an object or an array.
    package var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
