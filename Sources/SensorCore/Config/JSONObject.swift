/// A JSON object's members in the order the file has them, so diagnostics (unknown keys,
/// bad values) come in the order a person reads the file.
///
/// Lookup is a linear search: the objects sensorwatch reads have a handful of keys.
struct JSONObject: Hashable, Sendable, Sequence {
    /// One `key: value` pair.
    struct Member: Hashable, Sendable {
        var key: String
        var value: JSONValue
    }

    /// The members, in file order; keys are unique (the parser refuses duplicates).
    var members: [Member]

    init(_ members: [Member] = []) { self.members = members }

    /// The value of member `key`, or nil when absent.
    subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// The keys in file order.
    var keys: [String] { members.map(\.key) }

    /// Whether the object has no members.
    var isEmpty: Bool { members.isEmpty }

    func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}
