import SensorConfig
public import SensorRuntime

/// Configuration and scenario loading from files a test writes.
extension TemporaryDirectory {
    /// Error lines as `sensorwatch check` prints them, with this directory's prefix removed.
    public func lines(_ errors: ConfigErrors) -> [String] {
        errors.errors.map { $0.description.replacingOccurrences(of: root + "/", with: "") }
    }

    /// Loads configuration `name` and returns its error lines (empty when it loads).
    public func configErrors(_ name: String) -> [String] {
        errorLines { () throws(ConfigErrors) in _ = try ConfigLoader.load(path: path(name)) }
    }

    /// Loads scenario `name` and returns its error lines (empty when it loads).
    public func scenarioErrors(_ name: String) -> [String] {
        errorLines { () throws(ConfigErrors) in _ = try ScenarioLoader.load(path: path(name)) }
    }

    /// Writes `text` as `c.json5` in a fresh directory, loads it as a configuration and
    /// returns its error lines.
    public static func configErrors(of text: String) -> [String] {
        let files = TemporaryDirectory()
        files.write("c.json5", text)
        return files.configErrors("c.json5")
    }

    /// Writes `text` as `s.json5` in a fresh directory, loads it as a scenario and returns
    /// its error lines.
    public static func scenarioErrors(of text: String) -> [String] {
        let files = TemporaryDirectory()
        files.write("s.json5", text)
        return files.scenarioErrors("s.json5")
    }

    private func errorLines(_ load: () throws(ConfigErrors) -> Void) -> [String] {
        do {
            try load()
            return []
        } catch {
            return lines(error)
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced (FoundationEssentials-free, for test output).
    public func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
