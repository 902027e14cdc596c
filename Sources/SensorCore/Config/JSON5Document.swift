import FoundationEssentials

/// Reads and decodes one JSON5 file into a tree whose nodes know their key paths.
enum JSON5Document {
    /// The root node of `path`, or nil after reporting why the file cannot be read or
    /// parsed (syntax errors at `line L, column C`) to `diagnostics`.
    static func load(_ path: String, diagnostics: ConfigDiagnostics) -> ConfigNode? {
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
    static func load(contents: [UInt8], diagnostics: ConfigDiagnostics) -> ConfigNode? {
        let text: String
        do {
            text = try TextFile.text(contents)
        } catch {
            diagnostics.reportFile("cannot read: " + error.message)
            return nil
        }
        return parse(text, diagnostics: diagnostics)
    }

    /// Decodes JSON5 text; see ``load(_:diagnostics:)``.
    static func parse(_ text: String, diagnostics: ConfigDiagnostics) -> ConfigNode? {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            let value = try decoder.decode(JSONValue.self, from: Data(text.utf8))
            // The decoder checks a number's spelling only when asked for it, so `1.2.3`
            // arrives like `1e999`, as a number it could not convert; tell the two apart.
            // It also keeps one of two equal keys without a word; the scanner finds those.
            if let failure = JSON5SyntaxScanner.firstError(in: text),
                failure.isDuplicateKey || value.containsUnrepresentableNumber
            {
                diagnostics.report(line: failure.line, column: failure.column, failure.message)
                return nil
            }
            return ConfigNode(value: value, path: "", diagnostics: diagnostics)
        } catch {
            if let failure = JSON5SyntaxScanner.firstError(in: text) {
                diagnostics.report(line: failure.line, column: failure.column, failure.message)
            } else {
                diagnostics.reportFile("not valid JSON5")
            }
            return nil
        }
    }
}
