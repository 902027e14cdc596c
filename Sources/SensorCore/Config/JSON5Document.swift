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
    ///
    /// The syntax scanner goes first and has the last word on syntax: besides locating the
    /// error, it keeps malformed numbers such as `0x0x` away from the toolchain's decoder,
    /// which traps on some of them (a `preconditionFailure` in swift-foundation's
    /// `JSON5Scanner.validateNumber`, found by fuzzing). It also catches duplicate keys,
    /// of which the decoder silently keeps one.
    static func parse(_ text: String, diagnostics: ConfigDiagnostics) -> ConfigNode? {
        if let failure = JSON5SyntaxScanner.firstError(in: text) {
            diagnostics.report(line: failure.line, column: failure.column, failure.message)
            return nil
        }
        // A number that ends the input sends the decoder's strtod past the end of its buffer;
        // depending on the bytes there it then traps (seen while fuzzing `\n\n\n888…8`).
        // Inside an array every number is followed by at least the closing bracket.
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        let wrapped = "[\n" + body + "\n]"
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            guard case .array(let elements) = try decoder.decode(JSONValue.self, from: Data(wrapped.utf8)),
                elements.count == 1
            else {
                diagnostics.reportFile("not valid JSON5")
                return nil
            }
            return ConfigNode(value: elements[0], path: "", diagnostics: diagnostics)
        } catch {
            diagnostics.reportFile("not valid JSON5")
            return nil
        }
    }
}
