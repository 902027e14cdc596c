import Glibc
import SensorRuntime

/// The options of one subcommand, parsed from its arguments.
///
/// Accepts `--name value`, `--name=value` and bare flags; anything unknown is a usage error
/// (exit 64), so a typo never silently changes what runs. An option given more than once
/// keeps every value (`all`); the subscript reads the last.
struct Options {
    /// What went wrong with the command line.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    /// The arguments that are not options (`test FILE…`), in order; after `--` every
    /// argument is one.
    private(set) var arguments: [String] = []

    /// Parses `args` given the names that take a value and the names that are flags;
    /// `arguments` allows arguments that are not options.
    init(
        _ args: [String], valued: Set<String>, flags allowed: Set<String>, arguments takesArguments: Bool = false
    )
        throws(UsageError)
    {
        var i = 0
        while i < args.count {
            let arg = args[i]
            if takesArguments, arg == "--" {
                arguments += args[(i + 1)...]
                break
            }
            if takesArguments, !arg.hasPrefix("--") {
                arguments.append(arg)
                i += 1
                continue
            }
            guard arg.hasPrefix("--") else { throw UsageError(description: "unexpected argument '\(arg)'") }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valued.contains(name) {
                if let inline {
                    values[name, default: []].append(inline)
                } else {
                    guard i + 1 < args.count else { throw UsageError(description: "option --\(name) needs a value") }
                    i += 1
                    values[name, default: []].append(args[i])
                }
            } else if allowed.contains(name) || name == "help" {
                guard inline == nil else { throw UsageError(description: "option --\(name) takes no value") }
                flags.insert(name)
            } else {
                // A typo gets the option it most likely meant, as a config key does.
                let known = valued.sorted() + allowed.sorted() + ["help"]
                let hint = NearestNames.closest(to: name, in: known).map { " (did you mean --\($0)?)" } ?? ""
                throw UsageError(description: "unknown option '--\(name)'" + hint)
            }
            i += 1
        }
    }

    /// The last value given for `name`, nil when none was.
    subscript(_ name: String) -> String? { values[name]?.last }
    /// Every value given for `name`, in command-line order (a repeatable option).
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The config path: `--config`, else `$SENSORWATCH_CONFIG`, else the system default.
    var configPath: String {
        if let path = self["config"] { return path }
        if let env = getenv("SENSORWATCH_CONFIG"), let path = String(validatingCString: env), !path.isEmpty {
            return path
        }
        return "/etc/sensorwatch/sensorwatch.json5"
    }
}

#if canImport(Glibc)
#endif
