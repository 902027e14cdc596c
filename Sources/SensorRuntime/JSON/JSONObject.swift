/// A JSON object's members in the order the file has them, so diagnostics (unknown keys,
/// bad values) come in the order a person reads the file.
///
/// Lookup is a linear search: the objects sensorwatch reads have a handful of keys.
package struct JSONObject: Hashable, Sendable, Sequence {
    /// One `key: value` pair.
    package struct Member: Hashable, Sendable {
        package var key: String
        package var value: JSONValue

        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in file order; keys are unique (the parser refuses duplicates).
    package var members: [Member]

    package init(_ members: [Member] = []) { self.members = members }

    /// The value of member `key`, or nil when absent.
    package subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// The keys in file order.
    package var keys: [String] { members.map(\.key) }

    /// Whether the object has no members.
    package var isEmpty: Bool { members.isEmpty }

    package func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}
