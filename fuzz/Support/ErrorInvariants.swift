@testable import SensorRuntime

/// What every error a loader reports must satisfy, whatever the input (SPEC §2: errors print
/// one per line as `PATH: LOCATION: message`, syntax errors at `line L, column C`).
enum ErrorInvariants {
    /// How the JSON5 syntax scanner counts positions: lines split at LF, CR, CR LF, U+2028 and
    /// U+2029; columns count Unicode scalars, 1-based.
    static func scalarLineLengths(_ text: String) -> [Int] {
        var lengths = [0]
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" {
                i += 1
                lengths.append(0)
            } else if c == "\n" || c == "\r" || c == "\u{2028}" || c == "\u{2029}" {
                lengths.append(0)
            } else {
                lengths[lengths.count - 1] += 1
            }
            i += 1
        }
        return lengths
    }

    /// How the CSV parser counts positions: lines split at LF and CR LF; columns count characters.
    static func characterLineLengths(_ text: String) -> [Int] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(\.count)
    }

    /// Checks every error of a failed load; `lines` gives the length of each line of `file`
    /// (nil when that file's text is not known here, such as a scenario named by a config).
    static func check(_ errors: ConfigErrors, file: String, lines: [Int]?) {
        fuzzCheck(!errors.errors.isEmpty, "a load failed without saying why")
        for error in errors.errors {
            fuzzCheck(!error.file.isEmpty, "error without a file: \(error)")
            fuzzCheck(!error.message.isEmpty, "error without a message: \(error)")
            fuzzCheck(
                !error.description.unicodeScalars.contains(where: isLineBreakOrControl),
                "error does not print as one line: \(error.description.debugDescription)")
            switch error.location {
            case .file:
                fuzzCheck(
                    error.message != "not valid JSON5", "a syntax error without a line and column: \(error)")
            case .keyPath(let path):
                fuzzCheck(!path.isEmpty, "empty key path: \(error)")
            case .position(let line, let column):
                fuzzCheck(line >= 1 && column >= 1, "position before the start: \(error)")
                guard error.file == file, let lines else { continue }
                fuzzCheck(line <= lines.count, "line past the end (\(lines.count) lines): \(error)")
                if line <= lines.count {
                    fuzzCheck(
                        column <= lines[line - 1] + 1,
                        "column past the end of its line (\(lines[line - 1]) long): \(error)")
                }
            }
        }
    }

    /// Control characters (C0, DEL, C1) and Unicode line and paragraph separators.
    private static func isLineBreakOrControl(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x20 || (0x7F...0x9F).contains(c.value) || c == "\u{2028}" || c == "\u{2029}"
    }
}
