/// Finds where the first JSON5 syntax error in a text is.
///
/// The toolchain's `JSONDecoder` rejects a malformed document without saying where (and
/// traps on some malformed numbers), so loaders run this before decoding, to point the user
/// at `line L, column C`. It accepts what the decoder accepts, as far as fuzzing has found
/// (ASCII whitespace only, the decoder's escapes, no raw control characters in strings),
/// and also rejects duplicate keys, of which the decoder silently keeps one. It does not
/// check number ranges (`1e999` is reported at its key path).
struct JSON5SyntaxScanner {
    /// The first syntax error: a 1-based position and what was wrong there.
    struct Failure: Error, Hashable {
        var line: Int
        var column: Int
        var message: String
    }

    private let text: [Unicode.Scalar]
    private var index = 0
    private static let maximumDepth = 500

    private init(_ text: String) { self.text = Array(text.unicodeScalars) }

    /// The first syntax error in `text`, or nil when the scanner finds it well formed.
    static func firstError(in text: String) -> Failure? {
        var scanner = JSON5SyntaxScanner(text)
        do {
            try scanner.document()
            return nil
        } catch {
            return error
        }
    }

    private var atEnd: Bool { index >= text.count }
    private var current: Unicode.Scalar? { atEnd ? nil : text[index] }

    private mutating func document() throws(Failure) {
        // The decoder drops one byte order mark at the start, and only there.
        if current == "\u{FEFF}" { index += 1 }
        try skipSpace()
        try value(depth: 0)
        try skipSpace()
        if !atEnd { throw failure("unexpected \(describeCurrent) after the end of the document") }
    }

    private mutating func value(depth: Int) throws(Failure) {
        guard let c = current else { throw failure("expected a value, found end of file") }
        guard depth < Self.maximumDepth else { throw failure("values are nested too deeply") }
        switch c {
        case "{": try container(members: true, depth: depth)
        case "[": try container(members: false, depth: depth)
        case "\"", "'": try string()
        case "-", "+", ".", "0"..."9": try number()
        default:
            if Self.isIdentifierStart(c) {
                let start = index
                let word = try identifier()
                guard ["true", "false", "null", "Infinity", "NaN"].contains(word) else {
                    index = start
                    throw failure("expected a value, found \"\(word)\"")
                }
            } else {
                throw failure("expected a value, found \(describeCurrent)")
            }
        }
    }

    /// An object (`members`: `key: value` pairs) or an array, after its opening bracket.
    private mutating func container(members: Bool, depth: Int) throws(Failure) {
        let close: Unicode.Scalar = members ? "}" : "]"
        var keys: Set<String> = []
        index += 1
        while true {
            try skipSpace()
            if current == close {
                index += 1
                return
            }
            if members {
                let keyStart = index
                let name = try key()
                guard keys.insert(name).inserted else {
                    // Well formed, but the decoder would silently keep one of the two values.
                    index = keyStart
                    throw failure("duplicate key \"\(name)\"")
                }
                try skipSpace()
                guard current == ":" else { throw failure("expected \":\" after a key, found \(describeCurrent)") }
                index += 1
                try skipSpace()
            }
            try value(depth: depth + 1)
            try skipSpace()
            if current == "," {
                index += 1
            } else if current == close {
                index += 1
                return
            } else {
                throw failure("expected \",\" or \"\(Character(close))\" after a value, found \(describeCurrent)")
            }
        }
    }

    /// The key as written, without quotes (escapes are left as they are).
    private mutating func key() throws(Failure) -> String {
        guard let c = current else { throw failure("expected a key, found end of file") }
        if c == "\"" || c == "'" {
            let start = index
            try string()
            return String(String.UnicodeScalarView(text[(start + 1)..<(index - 1)]))
        } else if Self.isIdentifierStart(c) {
            return try identifier()
        } else {
            throw failure("expected a key, found \(describeCurrent)")
        }
    }

    private mutating func string() throws(Failure) {
        let start = index
        let quote = text[index]
        index += 1
        while let c = current {
            if c == quote {
                index += 1
                return
            }
            if c == "\n" || c == "\r" { break }
            // The decoder follows JSON here, not JSON5: control characters must be escaped.
            if c.value < 0x20 {
                throw failure("a control character (U+\(Self.hex4(c.value))) must be escaped in a string")
            }
            if c == "\\" {
                try escape()
            } else {
                index += 1
            }
        }
        index = start
        throw failure("unterminated string")
    }

    /// A backslash escape in a string, as the decoder accepts them: `\"`, `\'`, `\\`, `\/`,
    /// `\b`, `\f`, `\n`, `\r`, `\t`, a line break (continuing the string), `\xHH` and
    /// `\uHHHH` (a surrogate pair as two); neither may be NUL. JSON5's `\0`, `\v` and
    /// "any other character" are rejected by the decoder, so they are errors here too.
    private mutating func escape() throws(Failure) {
        let start = index
        index += 1
        guard let c = current else { return }
        switch c {
        case "\"", "'", "\\", "/", "b", "f", "n", "r", "t", "\n":
            index += 1
        case "\r":
            index += index + 1 < text.count && text[index + 1] == "\n" ? 2 : 1
        case "x":
            guard try hexDigits(2, escapeAt: start) != 0 else {
                index = start
                throw failure("a string must not contain NUL (\"\\x00\")")
            }
        case "u":
            let code = try hexDigits(4, escapeAt: start)
            if code == 0 {
                index = start
                throw failure("a string must not contain NUL (\"\\u0000\")")
            }
            if (0xDC00...0xDFFF).contains(code) {
                index = start
                throw failure("invalid escape: \"\\u\(Self.hex4(code))\" is the second half of a surrogate pair")
            }
            if (0xD800...0xDBFF).contains(code) {
                let unpaired = "invalid escape: \"\\u\(Self.hex4(code))\" must be followed by the second half of its surrogate pair"
                guard index + 1 < text.count, text[index] == "\\", text[index + 1] == "u" else {
                    index = start
                    throw failure(unpaired)
                }
                guard (0xDC00...0xDFFF).contains(try hexDigits(4, escapeAt: index)) else {
                    index = start
                    throw failure(unpaired)
                }
            }
        default:
            index = start
            throw failure("invalid escape \"\\\(Character(c))\" in a string")
        }
    }

    /// The value of `count` hexadecimal digits after the `x` or `u` of the escape at `start`;
    /// leaves `index` after them.
    private mutating func hexDigits(_ count: Int, escapeAt start: Int) throws(Failure) -> UInt32 {
        index = start + 2
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let d = current, d.properties.isASCIIHexDigit else {
                index = start
                throw failure("invalid escape: \(count) hexadecimal digits must follow \"\\\(Character(text[start + 1]))\"")
            }
            value = value * 16 + UInt32(hexValue(d))
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) {
        if current == "+" || current == "-" { index += 1 }
        if let c = current, Self.isIdentifierStart(c) {
            let start = index
            let word = try identifier()
            guard word == "Infinity" || word == "NaN" else {
                index = start
                throw failure("expected a number, found \"\(word)\"")
            }
            return
        }
        if current == "0", index + 1 < text.count, text[index + 1] == "x" || text[index + 1] == "X" {
            index += 2
            let digits = skip { $0.properties.isASCIIHexDigit }
            guard digits > 0 else { throw failure("expected a hexadecimal digit, found \(describeCurrent)") }
            return
        }
        if current == "0", index + 1 < text.count, Self.isDigit(text[index + 1]) {
            index += 1
            throw failure("a number must not have a leading zero")
        }
        var digits = skip(Self.isDigit)
        if current == "." {
            index += 1
            digits += skip(Self.isDigit)
        }
        guard digits > 0 else { throw failure("expected a digit, found \(describeCurrent)") }
        if current == "e" || current == "E" {
            index += 1
            if current == "+" || current == "-" { index += 1 }
            guard skip(Self.isDigit) > 0 else { throw failure("expected a digit in the exponent, found \(describeCurrent)") }
        }
    }

    /// A key or word; escapes in it are kept as written.
    private mutating func identifier() throws(Failure) -> String {
        var word = String.UnicodeScalarView()
        while let c = current, Self.isIdentifierPart(c) {
            if c == "\\" {
                // Like the decoder: `\uHHHH` or `\xHH`, not NUL, for any character a key may
                // continue with (also in first place: the decoder checks only the backslash there).
                let start = index
                let kind = index + 1 < text.count ? text[index + 1] : " "
                guard kind == "u" || kind == "x" else {
                    throw failure("invalid escape in a key (only \"\\uHHHH\" and \"\\xHH\" are allowed)")
                }
                let code = try hexDigits(kind == "u" ? 4 : 2, escapeAt: start)
                guard code != 0, let escaped = Unicode.Scalar(code), Self.isIdentifierPart(escaped) else {
                    let written = String(String.UnicodeScalarView(text[start..<index]))
                    index = start
                    throw failure("\"\(written)\" is not a letter a key can have")
                }
                word.append(contentsOf: text[start..<index])
                continue
            }
            word.append(c)
            index += 1
        }
        return String(word)
    }

    private mutating func skip(_ predicate: (Unicode.Scalar) -> Bool) -> Int {
        var count = 0
        while let c = current, predicate(c) {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func skipSpace() throws(Failure) {
        while let c = current {
            if Self.isSpace(c) {
                index += 1
            } else if c == "/", index + 1 < text.count, text[index + 1] == "/" {
                while let d = current, d != "\n", d != "\r" { index += 1 }
            } else if c == "/", index + 1 < text.count, text[index + 1] == "*" {
                let start = index
                index += 2
                while index + 1 < text.count, !(text[index] == "*" && text[index + 1] == "/") { index += 1 }
                guard index + 1 < text.count else {
                    index = start
                    throw failure("unterminated /* comment")
                }
                index += 2
            } else {
                return
            }
        }
    }

    private var describeCurrent: String {
        guard let c = current else { return "end of file" }
        if Self.isLineBreak(c) { return "a line break" }
        return "\"\(Character(c))\""
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var column = 1
        var i = 0
        while i < index, i < text.count {
            let c = text[i]
            if c == "\r", i + 1 < text.count, text[i + 1] == "\n" {
                // CR LF is one line break.
            } else if Self.isLineBreak(c) {
                line += 1
                column = 1
            } else {
                column += 1
            }
            i += 1
        }
        return Failure(line: line, column: column, message: message)
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    /// `code` as four uppercase hexadecimal digits.
    static func hex4(_ code: UInt32) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The value of an ASCII hexadecimal digit.
    private func hexValue(_ c: Unicode.Scalar) -> UInt8 {
        let v = UInt8(c.value)
        switch v {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return v - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return v - UInt8(ascii: "a") + 10
        default: return v - UInt8(ascii: "A") + 10
        }
    }

    private static func isLineBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c == "\u{2028}" || c == "\u{2029}"
    }

    /// What the decoder skips between tokens: ASCII whitespace only (JSON5 would also allow
    /// other Unicode spaces, but the toolchain's decoder rejects them).
    private static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}": return true
        default: return false
        }
    }

    /// What may begin a key: the decoder's letters (Lu, Ll, Lt, Lm, Lo, Nl), `$`, `_` and
    /// the backslash of an escape.
    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return true
        default:
            return c == "$" || c == "_" || c == "\\"
        }
    }

    /// What may continue a key: also marks (Mn, Mc), decimal digits, connector punctuation,
    /// ZWNJ and ZWJ.
    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return isIdentifierStart(c) || c == "\u{200C}" || c == "\u{200D}"
        }
    }
}
