/// Reads and validates a configuration file and every file it names (SPEC §3).
public enum ConfigLoader {
    /// Loads `path`, resolving relative paths against its directory, and loads every
    /// scenario it names. Throws every problem found, not just the first.
    public static func load(path: String) throws(ConfigErrors) -> Configuration {
        throw ConfigErrors([ConfigError(file: path, location: .file, message: "not implemented")])
    }
}
