/// Reads and validates a scenario file (SPEC §9), including the CSV files it names.
public enum ScenarioLoader {
    /// Loads `path`; relative CSV paths resolve against its directory.
    public static func load(path: String) throws(ConfigErrors) -> Scenario {
        throw ConfigErrors([ConfigError(file: path, location: .file, message: "not implemented")])
    }
}
