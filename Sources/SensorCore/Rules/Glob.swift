public import SensorRuntime

/// A shell-style glob on sensor ids: `*` (any run, including `:` and `/`), `?` (one
/// character), `[abc]`, `[a-z]`, `[!abc]`, and `\` to escape.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let tokens: [Token]

    private enum Token: Hashable, Sendable {
        case literal(Character)
        case any
        case star
        case set(negated: Bool, items: [SetItem])
    }

    private enum SetItem: Hashable, Sendable {
        case char(Character)
        case range(Character, Character)
    }

    /// Parses a pattern; an unclosed `[`, an empty set or a trailing `\` is an error.
    public init(_ pattern: String) throws(SyntaxError) {
        self.pattern = pattern
        var tokens: [Token] = []
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*":
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            case "?":
                tokens.append(.any)
                i += 1
            case "\\":
                guard i + 1 < chars.count else {
                    throw SyntaxError(message: "glob \"\(pattern)\" ends with a lone \\")
                }
                tokens.append(.literal(chars[i + 1]))
                i += 2
            case "[":
                var j = i + 1
                var negated = false
                if j < chars.count, chars[j] == "!" || chars[j] == "^" {
                    negated = true
                    j += 1
                }
                var items: [SetItem] = []
                var closed = false
                var first = true
                while j < chars.count {
                    let d = chars[j]
                    if d == "]" && !first {
                        closed = true
                        j += 1
                        break
                    }
                    first = false
                    if j + 2 < chars.count, chars[j + 1] == "-", chars[j + 2] != "]" {
                        guard d <= chars[j + 2] else {
                            throw SyntaxError(message: "glob \"\(pattern)\" has a reversed range \(d)-\(chars[j + 2])")
                        }
                        items.append(.range(d, chars[j + 2]))
                        j += 3
                    } else {
                        items.append(.char(d))
                        j += 1
                    }
                }
                guard closed else {
                    throw SyntaxError(message: "glob \"\(pattern)\" has an unclosed [")
                }
                tokens.append(.set(negated: negated, items: items))
                i = j
            default:
                tokens.append(.literal(c))
                i += 1
            }
        }
        self.tokens = tokens
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Whether `text` matches the whole pattern.
    public func matches(_ text: String) -> Bool {
        let s = Array(text)
        // Iterative matcher with single-star backtracking: linear in practice, no recursion.
        var ti = 0, si = 0
        var starTi = -1, starSi = 0
        while si < s.count {
            if ti < tokens.count {
                switch tokens[ti] {
                case .star:
                    starTi = ti
                    starSi = si
                    ti += 1
                    continue
                case .any:
                    ti += 1
                    si += 1
                    continue
                case .literal(let c) where c == s[si]:
                    ti += 1
                    si += 1
                    continue
                case .set(let negated, let items) where Self.setMatches(items, s[si]) != negated:
                    ti += 1
                    si += 1
                    continue
                default:
                    break
                }
            }
            guard starTi >= 0 else { return false }
            starSi += 1
            si = starSi
            ti = starTi + 1
        }
        while ti < tokens.count, tokens[ti] == .star { ti += 1 }
        return ti == tokens.count
    }

    private static func setMatches(_ items: [SetItem], _ c: Character) -> Bool {
        for item in items {
            switch item {
            case .char(let d): if d == c { return true }
            case .range(let lo, let hi): if lo <= c && c <= hi { return true }
            }
        }
        return false
    }

    /// Globs are equal when their patterns are written the same.
    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }
    /// Hashes the pattern as written, in step with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}

extension Glob {
    /// The glob as an RE2 regular expression that matches the same whole strings (an
    /// Alertmanager matcher, SPEC §21, which anchors it itself): `*` is `.*`, `?` is `.`,
    /// a set stays a set, every other character is literal.
    public var regularExpression: String {
        func literal(_ c: Character) -> String {
            "\\.+*?()|[]{}^$".contains(c) ? "\\" + String(c) : String(c)
        }
        func inSet(_ c: Character) -> String { "\\]^-[".contains(c) ? "\\" + String(c) : String(c) }
        var re = ""
        for token in tokens {
            switch token {
            case .literal(let c): re += literal(c)
            case .any: re += "."
            case .star: re += ".*"
            case .set(let negated, let items):
                re += negated ? "[^" : "["
                for item in items {
                    switch item {
                    case .char(let c): re += inSet(c)
                    case .range(let a, let b): re += inSet(a) + "-" + inSet(b)
                    }
                }
                re += "]"
            }
        }
        return re
    }
}
