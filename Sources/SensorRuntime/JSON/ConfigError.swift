/// One problem in a configuration or scenario file, with where it is.
///
/// Prints as `PATH: LOCATION: message` (SPEC §2): LOCATION is a key path such as
/// `rules[2].above`, or `line L, column C` for syntax errors; it is left out when the
/// problem is the file as a whole (missing, unreadable).
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in a file a problem is.
    public enum Location: Hashable, Sendable, CustomStringConvertible {
        /// The file as a whole.
        case file
        /// A key path, like `rules[2].above` or `sensors[0].segments[1]`.
        case keyPath(String)
        /// A position of a syntax error, 1-based.
        case position(line: Int, column: Int)

        /// The location as error messages write it; empty for the file as a whole.
        public var description: String {
            switch self {
            case .file: return ""
            case .keyPath(let p): return p
            case .position(let l, let c): return "line \(l), column \(c)"
            }
        }
    }

    /// The file the problem is in.
    public var file: String
    /// Where in the file it is.
    public var location: Location
    /// What is wrong, without the file or the location.
    public var message: String

    /// An error of the given fields.
    public init(file: String, location: Location, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// The problem without its file, for a text that names the file already
    /// (`line 1, column 5: unterminated string`, `alerts[0].since: expected a number, found a string`).
    public var locatedMessage: String {
        location == .file ? message : "\(location): \(message)"
    }

    /// One line: control characters and line separators (which a key or a duration string
    /// written with escapes can contain) print as ``DisplayText``'s escapes, such as `\n`
    /// and `\x07`.
    public var description: String {
        switch location {
        case .file: DisplayText.escaped("\(file): \(message)")
        default: DisplayText.escaped("\(file): \(location): \(message)")
        }
    }
}

/// Every problem found in a configuration and the files it names, not just the first.
public struct ConfigErrors: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var errors: [ConfigError]

    /// The errors given, in order.
    public init(_ errors: [ConfigError]) { self.errors = errors }

    /// One error per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
