/// A document a ``JSONFileStore`` keeps: `state.json`'s firing alerts, `notify.json`'s cursors.
///
/// Requirements: ``json`` and ``decode(_:path:)`` round-trip; `decode` reports a bad file
/// at its key path and gives a document of another ``version`` without reading further (the
/// store sets such a file aside instead of guessing at it).
package protocol KeptJSONDocument: Sendable {
    /// The format this code writes.
    static var currentVersion: Int { get }
    /// The file's format version.
    var version: Int { get }
    /// The file's JSON.
    var json: JSONValue { get }
    /// The document in `bytes`, read from `path`.
    ///
    /// - Throws: ``ConfigErrors`` at the key path of what is wrong.
    static func decode(_ bytes: [UInt8], path: String) throws(ConfigErrors) -> Self
}
