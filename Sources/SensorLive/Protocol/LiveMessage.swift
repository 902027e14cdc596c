import SensorRuntime

/// One line of the live stream (SPEC §22): newline-delimited JSON objects, each with a
/// `type`. Encoded with the project's ``JSONWriter`` and read with its JSON parser.
public enum LiveMessage: Sendable, Hashable {
    /// The first message: who speaks.
    case hello(LiveHello)
    /// The second, once: everything now.
    case snapshot(LiveSnapshot)
    /// What changed since the last message.
    case change(LiveChange)
    /// Why the daemon closes the connection.
    case error(String)

    /// The longest line a reader takes by default: a snapshot of a few thousand sensors
    /// with their history fits; a line longer is hostile.
    public static let maximumLineBytes = 64 << 20

    /// The message as one line of JSON, without the newline.
    public var line: String {
        JSONWriter.text(.object(JSONObject([JSONObject.Member.string("type", type)] + members)))
    }

    /// `hello`, `snapshot`, `change` or `error`.
    public var type: String {
        switch self {
        case .hello: return "hello"
        case .snapshot: return "snapshot"
        case .change: return "change"
        case .error: return "error"
        }
    }

    private var members: [JSONObject.Member] {
        switch self {
        case .hello(let h): return h.members
        case .snapshot(let s): return s.members
        case .change(let c): return c.members
        case .error(let message): return [.string("message", message)]
        }
    }

    /// The message one line holds (without its newline; a trailing `\r` or `\n` is taken).
    ///
    /// - Throws: ``LiveProtocolError`` naming what is wrong: never traps, whatever the line.
    public static func decode(_ line: String) throws(LiveProtocolError) -> LiveMessage {
        let f = try fields(of: line)
        let type = try f.string("type")
        let body = try LiveFields(f.object.value, path: type)
        switch type {
        case "hello": return .hello(try LiveHello(body))
        case "snapshot": return .snapshot(try LiveSnapshot(body))
        case "change": return .change(try LiveChange(body))
        case "error": return .error(try body.string("message"))
        default: throw LiveProtocolError("unknown message type \"\(type)\"")
        }
    }

    /// The object one line holds.
    package static func fields(of line: String) throws(LiveProtocolError) -> LiveFields {
        var text = Substring(line)
        while let last = text.last, last == "\n" || last == "\r" || last == "\r\n" { text = text.dropLast() }
        let value: JSONValue
        do {
            value = try JSON5Parser.parse(String(text))
        } catch {
            throw LiveProtocolError("not JSON: \(error.message) at column \(error.column)")
        }
        return try LiveFields(value, path: "message")
    }
}

extension JSONObject {
    /// Itself as a value.
    fileprivate var value: JSONValue { .object(self) }
}
