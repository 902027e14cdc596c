public import SensorRuntime

/// A broker's address as the `mqtt` section's `broker` writes it: `mqtt://HOST[:PORT]`
/// (plain TCP, port 1883) or `mqtts://HOST[:PORT]` (TLS, certificates verified, port 8883).
public struct MQTTBrokerAddress: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection is TLS (`mqtts://`).
    public var tls: Bool
    /// The host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The TCP port.
    public var port: Int

    /// An address with these parts.
    public init(tls: Bool, host: String, port: Int) {
        self.tls = tls
        self.host = host
        self.port = port
    }

    /// `mqtts://broker.example:8883`, as people read it (it never holds a password).
    public var description: String {
        (tls ? "mqtts://" : "mqtt://") + (host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host) + ":\(port)"
    }

    /// Parses `text`; the reason in words when it is not a broker address. The text itself
    /// is not repeated in the reason: a mistaken `user:password@` would be shown.
    public static func parse(_ text: String) -> Result<MQTTBrokerAddress, SyntaxError> {
        let lower = text.lowercased()
        let tls: Bool
        if lower.hasPrefix("mqtts://") {
            tls = true
        } else if lower.hasPrefix("mqtt://") {
            tls = false
        } else {
            return .failure(
                SyntaxError(
                    message: "must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], e.g. \"mqtt://127.0.0.1:1883\""))
        }
        var rest = Substring(text.dropFirst(tls ? 8 : 7))
        if rest.hasSuffix("/") { rest.removeLast() }
        if rest.utf8.contains(UInt8(ascii: "@")) {
            return .failure(
                SyntaxError(
                    message: "must not hold a user name or password: use username and passwordFile or credential"))
        }
        if rest.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace }) {
            return .failure(SyntaxError(message: "must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], without a path"))
        }
        var host = rest
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                return .failure(SyntaxError(message: "has an IPv6 address without its closing ]"))
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    return .failure(SyntaxError(message: "has text after the IPv6 address"))
                }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(SyntaxError(message: "has no host")) }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                return .failure(SyntaxError(message: "has a port that is not a number from 1 to 65535"))
            }
            port = p
        }
        return .success(MQTTBrokerAddress(tls: tls, host: String(host), port: port))
    }
}
