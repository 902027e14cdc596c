import CSystemd

/// Reads chosen fields of the current journal entry in one pass over its data, by name: one
/// `sd_journal_get_data` per field would walk the entry once per field, and matching names
/// as bytes spares a String per field the entry has.
struct JournalEntryFields: Sendable {
    /// The names read.
    let names: [String]
    /// The names as the `NAME=` bytes an entry's data starts with.
    private let prefixes: [[UInt8]]

    /// A reader of the fields `names`.
    init(_ names: [String]) {
        self.names = names
        prefixes = names.map { Array(($0 + "=").utf8) }
    }

    /// The wanted fields of the current entry of `j`, by name: absent where the entry lacks
    /// one or it is not UTF-8; the first of a name the entry holds twice.
    func read(_ j: OpaquePointer) -> [String: String] {
        var out: [String: String] = [:]
        var data: UnsafeRawPointer?
        var length = 0
        sd_journal_restart_data(j)
        while sd_journal_enumerate_data(j, &data, &length) > 0, let data {
            // `NAME=value`, not NUL-terminated, valid until the next call on `j`.
            let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: length)
            guard let i = prefixes.firstIndex(where: { bytes.starts(with: $0) }), out[names[i]] == nil else { continue }
            out[names[i]] = String(
                validating: UnsafeBufferPointer(rebasing: bytes[prefixes[i].count...]), as: UTF8.self)
        }
        return out
    }
}
