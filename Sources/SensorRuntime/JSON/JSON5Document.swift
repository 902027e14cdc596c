/// Reads and decodes one JSON5 file into a tree whose nodes know their key paths.
package enum JSON5Document {
    /// The root node of `path`, or nil after reporting why the file cannot be read or
    /// parsed (syntax errors at `line L, column C`) to `diagnostics`.
    package static func load(_ path: String, diagnostics: ConfigDiagnostics) -> ConfigNode? {
        let text: String
        do {
            text = try TextFile.contents(of: path)
        } catch {
            diagnostics.reportFile("cannot read: " + error.message)
            return nil
        }
        return parse(text, diagnostics: diagnostics)
    }

    /// Like ``load(_:diagnostics:)`` for a file's bytes already in memory.
    package static func load(contents: [UInt8], diagnostics: ConfigDiagnostics) -> ConfigNode? {
        let text: String
        do {
            text = try TextFile.text(contents)
        } catch {
            diagnostics.reportFile("cannot read: " + error.message)
            return nil
        }
        return parse(text, diagnostics: diagnostics)
    }

    /// A file a person writes (a configuration, a scenario) at `path`, read from disk, given
    /// to `decode` as its root (nil when it could not be read or parsed: the reason is in
    /// the diagnostics), with the diagnostics that name `path`.
    package static func load<T>(
        path: String, _ decode: (ConfigNode?, String, ConfigDiagnostics) throws(ConfigErrors) -> T
    ) throws(ConfigErrors) -> T {
        let diagnostics = ConfigDiagnostics(file: path)
        return try decode(load(path, diagnostics: diagnostics), path, diagnostics)
    }

    /// Like ``load(path:_:)`` for the bytes of such a file already in memory; `path` names it.
    package static func load<T>(
        contents: [UInt8], path: String, _ decode: (ConfigNode?, String, ConfigDiagnostics) throws(ConfigErrors) -> T
    ) throws(ConfigErrors) -> T {
        let diagnostics = ConfigDiagnostics(file: path)
        return try decode(load(contents: contents, diagnostics: diagnostics), path, diagnostics)
    }

    /// Parses JSON5 text; see ``load(_:diagnostics:)``.
    package static func parse(_ text: String, diagnostics: ConfigDiagnostics) -> ConfigNode? {
        do {
            return ConfigNode(value: try JSON5Parser.parse(text), path: "", diagnostics: diagnostics)
        } catch {
            diagnostics.report(line: error.line, column: error.column, error.message)
            return nil
        }
    }

    /// A file sensorwatch wrote (`state.json`, `notify.json`), read with `decode`.
    ///
    /// - Throws: ``ConfigErrors`` against `path`: a syntax error's position, or the key
    ///   paths `decode` reported.
    package static func decode<T>(
        _ bytes: [UInt8], path: String, _ decode: (ConfigNode) -> T?
    ) throws(ConfigErrors) -> T {
        let diagnostics = ConfigDiagnostics(file: path)
        let decoded = load(contents: bytes, diagnostics: diagnostics).flatMap(decode)
        guard let decoded, diagnostics.errors.isEmpty else {
            throw ConfigErrors(
                diagnostics.errors.isEmpty
                    ? [ConfigError(file: path, location: .file, message: "unreadable")] : diagnostics.errors)
        }
        return decoded
    }
}
