/// One value of a decoded JSON5 file together with its key path (`rules[2].above`).
///
/// Every accessor either returns a valid value or reports why not to the shared
/// ``ConfigDiagnostics`` and returns nil, so a loader keeps walking and finds every problem.
package struct ConfigNode {
    package let value: JSONValue
    /// `""` for the root, then `sources[0].type` style.
    package let path: String
    package let diagnostics: ConfigDiagnostics

    package init(value: JSONValue, path: String, diagnostics: ConfigDiagnostics) {
        self.value = value
        self.path = path
        self.diagnostics = diagnostics
    }

    /// The path of member `key` of this node.
    package func path(of key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Records a problem at this node.
    package func report(_ message: String) { diagnostics.report(path, message) }

    /// This node as an object; members outside `keys` are reported as unknown.
    package func object(keys: [String]) -> ConfigObject? {
        guard case .object(let members) = value else {
            report("expected an object, found \(value.kindDescription)")
            return nil
        }
        for key in members.keys where !keys.contains(key) {
            let hint = NearestNames.closest(to: key, in: keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            diagnostics.report(path(of: key), "unknown key" + hint)
        }
        return ConfigObject(node: self, members: members)
    }

    /// This node as an object whose every key is accepted: for files sensorwatch writes
    /// itself, where a newer version's extra keys are ignored.
    package func object() -> ConfigObject? {
        guard case .object(let members) = value else {
            report("expected an object, found \(value.kindDescription)")
            return nil
        }
        return ConfigObject(node: self, members: members)
    }

    /// The decoded elements of this array node (absent: none) whose `key` no earlier
    /// element has; a repeat is reported at its `keyName` member with `duplicate(key, first)`,
    /// where `first` is the path of the element that has it first.
    package static func uniqueElements<T, K: Hashable>(
        of node: ConfigNode?, keyName: String, key: (T) -> K, decode: (ConfigNode) -> T?,
        duplicate: (K, String) -> String
    ) -> [T] {
        guard let elements = node?.array() else { return [] }
        var first: [K: String] = [:]
        var out: [T] = []
        for element in elements {
            guard let decoded = decode(element) else { continue }
            let k = key(decoded)
            if let earlier = first[k] {
                element.diagnostics.report(element.path(of: keyName), duplicate(k, earlier))
            } else {
                first[k] = element.path
                out.append(decoded)
            }
        }
        return out
    }

    /// This node's elements, each with its `[i]` path.
    package func array() -> [ConfigNode]? {
        guard case .array(let elements) = value else {
            report("expected an array, found \(value.kindDescription)")
            return nil
        }
        return elements.enumerated().map {
            ConfigNode(value: $1, path: path + "[\($0)]", diagnostics: diagnostics)
        }
    }

    /// A string without NUL: JSON5 can write one (`"\0"`), but paths, names and labels
    /// go on to C functions and journal fields, where it would cut them short.
    package func string() -> String? {
        guard case .string(let s) = value else {
            report("expected a string, found \(value.kindDescription)")
            return nil
        }
        guard !s.unicodeScalars.contains("\u{0}") else {
            report("a string must not contain NUL")
            return nil
        }
        return s
    }

    package func bool() -> Bool? {
        guard case .bool(let b) = value else {
            report("expected true or false, found \(value.kindDescription)")
            return nil
        }
        return b
    }

    /// A finite number; `NaN` and `Infinity`, which JSON5 has, are not allowed as values.
    package func number() -> Double? {
        switch value {
        case .integer(let i): return Double(i)
        case .number(let d):
            if d.isNaN {
                report("expected a finite number, found NaN")
                return nil
            }
            if d.isInfinite {
                report("expected a finite number, found \(d < 0 ? "-" : "")Infinity")
                return nil
            }
            return d
        case .unrepresentableNumber:
            report("number out of range")
            return nil
        default:
            report("expected a number, found \(value.kindDescription)")
            return nil
        }
    }

    /// A finite number that is `> 0` (`strictly`) or `>= 0`.
    package func number(atLeastZero strictly: Bool) -> Double? {
        guard let d = number() else { return nil }
        if strictly ? d <= 0 : d < 0 {
            report(strictly ? "must be greater than 0" : "must be 0 or more")
            return nil
        }
        return d
    }

    /// A whole number (`1.0` counts as whole).
    package func integer() -> Int64? {
        switch value {
        case .integer(let i): return i
        case .number(let d) where d.isFinite:
            report("expected a whole number, found \(d)")
            return nil
        default:
            _ = number()
            return nil
        }
    }

    /// A duration string such as `"1.5s"`; `positive` rejects `"0s"`.
    package func duration(positive: Bool) -> Duration? {
        guard case .string(let text) = value else {
            report("expected a duration such as \"10s\", found \(value.kindDescription)")
            return nil
        }
        do {
            let d = try DurationParser.parse(text)
            if positive && d <= .zero {
                report("must be longer than 0s")
                return nil
            }
            return d
        } catch {
            report("invalid duration \"\(text)\": \(error.message)")
            return nil
        }
    }

    /// One of a fixed set of words, such as a severity; `what` names it in messages.
    package func choice<T: RawRepresentable & CaseIterable>(_ what: String) -> T? where T.RawValue == String {
        guard let s = string() else { return nil }
        if let v = T(rawValue: s) { return v }
        let all = T.allCases.map(\.rawValue)
        report("unknown \(what) \"\(s)\" (expected \(all.dropLast().joined(separator: ", ")) or \(all.last ?? ""))")
        return nil
    }
}
