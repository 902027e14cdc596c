import CSystemd

/// Reads chosen fields of the current journal entry in one pass over its data: one
/// `sd_journal_get_data` per field would walk the entry once per field, and matching names
/// as bytes spares a String per field the entry has.
enum JournalEntryFields {
    /// Field names as the `NAME=` bytes ``read(_:_:)`` matches.
    static func names(_ names: [String]) -> [[UInt8]] { names.map { Array(($0 + "=").utf8) } }

    /// The `wanted` fields of the current entry of `j` (nil where absent or not UTF-8).
    static func read(_ j: OpaquePointer, _ wanted: [[UInt8]]) -> [String?] {
        var out = [String?](repeating: nil, count: wanted.count)
        var data: UnsafeRawPointer?
        var length = 0
        sd_journal_restart_data(j)
        while sd_journal_enumerate_data(j, &data, &length) > 0, let data {
            // `NAME=value`, not NUL-terminated, valid until the next call on `j`.
            let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: length)
            guard let i = wanted.firstIndex(where: { bytes.starts(with: $0) }) else { continue }
            out[i] = String(validating: UnsafeBufferPointer(rebasing: bytes[wanted[i].count...]), as: UTF8.self)
        }
        return out
    }
}
