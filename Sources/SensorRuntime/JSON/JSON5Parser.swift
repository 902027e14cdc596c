/// Parses JSON5 as json5.org specifies it into a ``JSONValue``, once, or says where the first
/// error is (`line L, column C`).
///
/// Our own parser rather than the toolchain's `JSONDecoder` (see docs/decisions.md): that
/// decoder is the only reason the binary would link Foundation, it loses key order, it does
/// not say where an error is, it silently keeps one of two duplicate keys and it trapped on
/// some malformed numbers. Beyond JSON5, duplicate keys and lone surrogates (`"\uD800"`, which
/// a Swift `String` cannot hold) are errors. Number ranges are left to the loaders (`1e999`
/// is ``JSONValue/unrepresentableNumber``, reported at its key path).
package struct JSON5Parser {
    /// The first syntax error: a 1-based position and what was wrong there.
    package struct Failure: Error, Hashable {
        /// The 1-based line.
        package var line: Int
        /// The 1-based column.
        package var column: Int
        /// What was wrong there.
        package var message: String
    }

    private let text: [Unicode.Scalar]
    private var index = 0
    private static let maximumDepth = 500

    private init(_ text: String) { self.text = Array(text.unicodeScalars) }

    /// The value `text` holds.
    ///
    /// - Throws: ``Failure`` at the first syntax error.
    package static func parse(_ text: String) throws(Failure) -> JSONValue {
        var parser = JSON5Parser(text)
        return try parser.document()
    }

    private var atEnd: Bool { index >= text.count }
    private var current: Unicode.Scalar? { atEnd ? nil : text[index] }
    private var next: Unicode.Scalar? { index + 1 < text.count ? text[index + 1] : nil }

    private mutating func document() throws(Failure) -> JSONValue {
        try skipSpace()
        let result = try value(depth: 0)
        try skipSpace()
        if !atEnd { throw failure("unexpected \(describeCurrent) after the end of the document") }
        return result
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard let c = current else { throw failure("expected a value, found end of file") }
        guard depth < Self.maximumDepth else { throw failure("values are nested too deeply") }
        switch c {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"", "'": return .string(try string())
        case "-", "+", ".", "0"..."9": return try number()
        default:
            guard Self.isIdentifierStart(c) else { throw failure("expected a value, found \(describeCurrent)") }
            let start = index
            switch word() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            case "Infinity": return .number(.infinity)
            case "NaN": return .number(.nan)
            case let other:
                index = start
                throw failure("expected a value, found \"\(other)\"")
            }
        }
    }

    /// An object, from its opening brace.
    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        var members: [JSONObject.Member] = []
        var keys: Set<String> = []
        index += 1
        while true {
            try skipSpace()
            if current == "}" { break }
            let keyStart = index
            let name = try key()
            guard keys.insert(name).inserted else {
                // Well formed, but which of the two values would be meant?
                index = keyStart
                throw failure("duplicate key \"\(name)\"")
            }
            try skipSpace()
            guard current == ":" else { throw failure("expected \":\" after a key, found \(describeCurrent)") }
            index += 1
            try skipSpace()
            members.append(JSONObject.Member(key: name, value: try value(depth: depth + 1)))
            guard try separator(close: "}") else { break }
        }
        index += 1
        return .object(JSONObject(members))
    }

    /// An array, from its opening bracket.
    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        var elements: [JSONValue] = []
        index += 1
        while true {
            try skipSpace()
            if current == "]" { break }
            elements.append(try value(depth: depth + 1))
            guard try separator(close: "]") else { break }
        }
        index += 1
        return .array(elements)
    }

    /// After a member or element: true past a comma, false at `close` (left for the caller).
    private mutating func separator(close: Unicode.Scalar) throws(Failure) -> Bool {
        try skipSpace()
        if current == "," {
            index += 1
            return true
        }
        guard current == close else {
            throw failure("expected \",\" or \"\(Character(close))\" after a value, found \(describeCurrent)")
        }
        return false
    }

    private mutating func key() throws(Failure) -> String {
        guard let c = current else { throw failure("expected a key, found end of file") }
        if c == "\"" || c == "'" { return try string() }
        if c == "\\" || Self.isIdentifierStart(c) { return try identifier() }
        throw failure("expected a key, found \(describeCurrent)")
    }

    /// A quoted string, from its quote, with its escapes applied.
    private mutating func string() throws(Failure) -> String {
        let start = index
        let quote = text[index]
        var out = String.UnicodeScalarView()
        index += 1
        while let c = current {
            if c == quote {
                index += 1
                return String(out)
            }
            // U+2028 and U+2029 may stand in a string as they are; LF and CR may not.
            if c == "\n" || c == "\r" { break }
            if c == "\\" {
                try escape(into: &out)
            } else {
                out.append(c)
                index += 1
            }
        }
        index = start
        throw failure("unterminated string")
    }

    /// A backslash escape in a string, as JSON5 has them: the single-character escapes
    /// (`\b \f \n \r \t \v \0`), `\xHH`, `\uHHHH` (a surrogate pair as two), a line
    /// terminator (the string continues on the next line), and any other character, which
    /// stands for itself. A digit other than a lone `\0` is an error (no octal escapes).
    private mutating func escape(into out: inout String.UnicodeScalarView) throws(Failure) {
        let start = index
        index += 1
        guard let c = current else { return }
        index += 1
        switch c {
        case "b": out.append("\u{8}")
        case "f": out.append("\u{C}")
        case "n": out.append("\n")
        case "r": out.append("\r")
        case "t": out.append("\t")
        case "v": out.append("\u{B}")
        case "\n", "\u{2028}", "\u{2029}": break
        case "\r": if current == "\n" { index += 1 }
        case "0":
            if let d = current, Self.isDigit(d) {
                index = start
                throw failure("invalid escape \"\\0\(Character(d))\" in a string (JSON5 has no octal escapes)")
            }
            out.append("\u{0}")
        case "1"..."9":
            index = start
            throw failure("invalid escape \"\\\(Character(c))\" in a string")
        case "x":
            out.append(Unicode.Scalar(UInt8(try hexDigits(2, escapeAt: start))))
        case "u":
            out.append(try unicodeEscape(at: start))
        default:
            out.append(c)
        }
    }

    /// The character of the `\uHHHH` escape at `start`, or of the surrogate pair that begins
    /// there; leaves `index` after it.
    private mutating func unicodeEscape(at start: Int) throws(Failure) -> Unicode.Scalar {
        let code = try hexDigits(4, escapeAt: start)
        if (0xDC00...0xDFFF).contains(code) {
            index = start
            throw failure("invalid escape: \"\\u\(Self.hex4(code))\" is the second half of a surrogate pair")
        }
        guard (0xD800...0xDBFF).contains(code) else { return Unicode.Scalar(code) ?? "\u{FFFD}" }
        let unpaired =
            "invalid escape: \"\\u\(Self.hex4(code))\" must be followed by the second half of its surrogate pair"
        guard current == "\\", next == "u" else {
            index = start
            throw failure(unpaired)
        }
        let low = try hexDigits(4, escapeAt: index)
        guard (0xDC00...0xDFFF).contains(low),
            let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        else {
            index = start
            throw failure(unpaired)
        }
        return scalar
    }

    /// The value of `count` hexadecimal digits after the `x` or `u` of the escape at `start`;
    /// leaves `index` after them.
    private mutating func hexDigits(_ count: Int, escapeAt start: Int) throws(Failure) -> UInt32 {
        index = start + 2
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let d = current, let digit = Self.hexValue(d) else {
                index = start
                throw failure(
                    "invalid escape: \(count) hexadecimal digits must follow \"\\\(Character(text[start + 1]))\"")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        let negative = current == "-"
        if current == "+" || current == "-" { index += 1 }
        if let c = current, Self.isIdentifierStart(c) {
            let wordStart = index
            switch word() {
            case "Infinity": return .number(negative ? -.infinity : .infinity)
            case "NaN": return .number(.nan)
            case let other:
                index = wordStart
                throw failure("expected a number, found \"\(other)\"")
            }
        }
        if current == "0", next == "x" || next == "X" {
            index += 2
            return try hexNumber(negative: negative)
        }
        if current == "0", let n = next, Self.isDigit(n) {
            index += 1
            throw failure("a number must not have a leading zero")
        }
        var digits = skip(Self.isDigit)
        var whole = true
        if current == "." {
            index += 1
            whole = false
            digits += skip(Self.isDigit)
        }
        guard digits > 0 else { throw failure("expected a digit, found \(describeCurrent)") }
        if current == "e" || current == "E" {
            index += 1
            whole = false
            if current == "+" || current == "-" { index += 1 }
            guard skip(Self.isDigit) > 0 else {
                throw failure("expected a digit in the exponent, found \(describeCurrent)")
            }
        }
        let literal = String(String.UnicodeScalarView(text[start..<index]))
        if whole, let i = Int64(literal) { return .integer(i) }
        guard let d = Double(literal), d.isFinite else { return .unrepresentableNumber }
        return Self.number(d)
    }

    /// The digits after `0x`.
    private mutating func hexNumber(negative: Bool) throws(Failure) -> JSONValue {
        var magnitude: UInt64 = 0
        var approximate: Double = 0
        var overflow = false
        var digits = 0
        while let c = current, let digit = Self.hexValue(c) {
            approximate = approximate * 16 + Double(digit)
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 16)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            magnitude = sum
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw failure("expected a hexadecimal digit, found \(describeCurrent)") }
        if !overflow, magnitude <= UInt64(Int64.max) {
            return .integer(negative ? -Int64(magnitude) : Int64(magnitude))
        }
        if !overflow, negative, magnitude == UInt64(Int64.max) + 1 { return .integer(.min) }
        guard approximate.isFinite else { return .unrepresentableNumber }
        return .number(negative ? -approximate : approximate)
    }

    /// `1.0` and `1e3` are whole numbers too, as they were with the toolchain's decoder.
    private static func number(_ d: Double) -> JSONValue {
        if d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18 { return .integer(Int64(d)) }
        return .number(d)
    }

    /// A key written without quotes, its `\uHHHH` escapes applied.
    private mutating func identifier() throws(Failure) -> String {
        var word = String.UnicodeScalarView()
        while let c = current {
            if c == "\\" {
                let start = index
                guard next == "u" else { throw failure("invalid escape in a key (only \"\\uHHHH\" is allowed)") }
                let code = try hexDigits(4, escapeAt: start)
                guard let escaped = Unicode.Scalar(code),
                    word.isEmpty ? Self.isIdentifierStart(escaped) : Self.isIdentifierPart(escaped)
                else {
                    let written = String(String.UnicodeScalarView(text[start..<index]))
                    index = start
                    throw failure("\"\(written)\" is not a letter a key can have")
                }
                word.append(escaped)
                continue
            }
            guard word.isEmpty ? Self.isIdentifierStart(c) : Self.isIdentifierPart(c) else { break }
            word.append(c)
            index += 1
        }
        return String(word)
    }

    /// A bare word in value position (`true`, `Infinity`, or a mistake); no escapes.
    private mutating func word() -> String {
        let start = index
        _ = skip(Self.isIdentifierPart)
        return String(String.UnicodeScalarView(text[start..<index]))
    }

    private mutating func skip(_ predicate: (Unicode.Scalar) -> Bool) -> Int {
        var count = 0
        while let c = current, predicate(c) {
            index += 1
            count += 1
        }
        return count
    }

    /// Whitespace, line terminators and comments.
    private mutating func skipSpace() throws(Failure) {
        while let c = current {
            if Self.isSpace(c) || Self.isLineBreak(c) {
                index += 1
            } else if c == "/", next == "/" {
                while let d = current, !Self.isLineBreak(d) { index += 1 }
            } else if c == "/", next == "*" {
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
    package static func hex4(_ code: UInt32) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The value of an ASCII hexadecimal digit, nil for any other character.
    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }

    private static func isLineBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c == "\u{2028}" || c == "\u{2029}"
    }

    /// JSON5's white space besides line terminators: tab, vertical tab, form feed, space,
    /// no-break space, the byte order mark and every other space separator (Zs).
    private static func isSpace(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "\t", "\u{0B}", "\u{0C}", " ", "\u{A0}", "\u{FEFF}": return true
        default: return c.value > 0x7F && c.properties.generalCategory == .spaceSeparator
        }
    }

    /// What may begin a key (ECMAScript 5.1): letters (Lu, Ll, Lt, Lm, Lo, Nl), `$` and `_`.
    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII {
            return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "$" || c == "_"
        }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return true
        default:
            return false
        }
    }

    /// What may continue a key: also marks (Mn, Mc), decimal digits, connector punctuation,
    /// ZWNJ and ZWJ.
    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isIdentifierStart(c) || isDigit(c) }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return isIdentifierStart(c) || c == "\u{200C}" || c == "\u{200D}"
        }
    }
}
