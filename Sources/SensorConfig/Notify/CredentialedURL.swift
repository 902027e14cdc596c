/// A URL as configured, which may carry user information (`https://user:secret@am:9093`):
/// the address sent without it, the credentials for HTTP basic authentication, and the form
/// to show with the password masked (SPEC §17 Secrets).
///
/// User information is the only way an Alertmanager URL can say how to authenticate, so the
/// password is in the configuration; it must not travel further than the `Authorization`
/// header: not into the journal, `--test`'s output, error messages or notify.json.
public struct CredentialedURL: Sendable, Hashable {
    /// The URL as written.
    public let text: String
    /// The URL without its user information: what the request goes to.
    public let address: String
    /// The user name, percent-decoded (`user` of `user:secret@`); nil without user information.
    public let user: String?
    /// The password, percent-decoded; nil when the user information has no `:`.
    public let password: String?
    /// The URL for people: the password replaced by `***` (`https://user:***@am:9093`).
    public let shown: String

    /// Whether an `@` follows the authority (in the path, query or fragment): user
    /// information whose password holds an unescaped `/`, `?` or `#` ends the authority
    /// early, and the rest of the password would be shown and sent as a path.
    public let hasStrayAt: Bool

    /// What replaces a password where a URL is shown.
    public static let mask = "***"

    /// Splits `text`. Without `scheme://`, or without `@` in the authority, there is no user
    /// information and every form is `text` itself.
    public init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        guard let schemeEnd = Self.find(Array("://".utf8), in: bytes) else {
            (address, user, password, shown, hasStrayAt) = (text, nil, nil, text, false)
            return
        }
        let authorityStart = schemeEnd + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }
            ?? bytes.endIndex
        hasStrayAt = bytes[authorityEnd...].contains(UInt8(ascii: "@"))
        // The last `@`: a password may hold an unescaped one, a host never does.
        guard let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else {
            (address, user, password, shown) = (text, nil, nil, text)
            return
        }
        let head = String(decoding: bytes[..<authorityStart], as: UTF8.self)
        let tail = String(decoding: bytes[(at + 1)...], as: UTF8.self)
        let info = bytes[authorityStart..<at]
        address = head + tail
        if let colon = info.firstIndex(of: UInt8(ascii: ":")) {
            let rawUser = String(decoding: info[..<colon], as: UTF8.self)
            user = Self.percentDecoded(info[..<colon])
            password = Self.percentDecoded(info[(colon + 1)...])
            shown = head + rawUser + ":" + Self.mask + "@" + tail
        } else {
            user = Self.percentDecoded(info[...])
            password = nil
            shown = text
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// `%40` as `@`; a `%` not followed by two hex digits is kept as it is.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), let high = hexValue(bytes, i + 1), let low = hexValue(bytes, i + 2) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ bytes: ArraySlice<UInt8>, _ i: Int) -> UInt8? {
        guard i < bytes.endIndex else { return nil }
        return switch bytes[i] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): bytes[i] - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): bytes[i] - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): bytes[i] - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
