/// A small well-formedness check for the SVG the plot writes (tests only, no XML library):
/// every tag closes in order, attributes are quoted, and `<` and `&` appear in text and
/// attribute values only as the five XML entities or character references.
enum XMLWellFormedness {
    /// The first problem found, or nil for a well-formed document with one root element.
    static func problem(_ xml: String) -> String? {
        let s = Array(xml.unicodeScalars)
        var i = 0
        var stack: [String] = []
        var roots = 0
        func entityOK(at k: Int) -> Bool {
            var j = k + 1
            var name = ""
            while j < s.count, s[j] != ";", j - k < 12 { name.unicodeScalars.append(s[j]); j += 1 }
            guard j < s.count, s[j] == ";" else { return false }
            return ["lt", "gt", "amp", "quot", "apos"].contains(name) || name.hasPrefix("#")
        }
        while i < s.count {
            let u = s[i]
            if u == "&" {
                if !entityOK(at: i) { return "bad entity at \(i)" }
                i += 1
                continue
            }
            guard u == "<" else {
                if u.value < 0x20, u != "\n", u != "\t", u != "\r" { return "control character at \(i)" }
                i += 1
                continue
            }
            var j = i + 1
            let closing = j < s.count && s[j] == "/"
            if closing { j += 1 }
            var name = ""
            while j < s.count, !" />\n\t".unicodeScalars.contains(s[j]) { name.unicodeScalars.append(s[j]); j += 1 }
            if name.isEmpty { return "empty tag name at \(i)" }
            // Attributes: name="value" pairs until > or />.
            var selfClosing = false
            while true {
                while j < s.count, s[j] == " " || s[j] == "\n" { j += 1 }
                guard j < s.count else { return "unterminated tag <\(name)" }
                if s[j] == ">" { j += 1; break }
                if s[j] == "/", j + 1 < s.count, s[j + 1] == ">" { selfClosing = true; j += 2; break }
                if closing { return "attribute in closing tag </\(name)" }
                while j < s.count, s[j] != "=" {
                    if " <>\"".unicodeScalars.contains(s[j]) { return "bad attribute name in <\(name)" }
                    j += 1
                }
                guard j + 1 < s.count, s[j + 1] == "\"" else { return "unquoted attribute in <\(name)" }
                j += 2
                while j < s.count, s[j] != "\"" {
                    if s[j] == "<" { return "< in an attribute of <\(name)" }
                    if s[j] == "&", !entityOK(at: j) { return "bad entity in an attribute of <\(name)" }
                    j += 1
                }
                j += 1
            }
            if closing {
                guard stack.popLast() == name else { return "</\(name)> closes the wrong element" }
            } else if !selfClosing {
                if stack.isEmpty { roots += 1 }
                stack.append(name)
            } else if stack.isEmpty {
                roots += 1
            }
            i = j
        }
        if !stack.isEmpty { return "unclosed <\(stack.last!)>" }
        return roots == 1 ? nil : "\(roots) root elements"
    }
}
