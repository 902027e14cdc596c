/// Turns the `notify` array of a configuration into ``NotifyTarget`` values (SPEC §17).
/// `run` ignores them; `check` and `notify` report every problem at its key path.
enum NotifyDecoder {
    private static let kinds = ["exec", "alertmanager"]
    private static let keys = kinds + ["severity", "rule", "sensor", "host", "timeout"]

    /// The valid targets of `node` (an array, or absent for none); a target defined twice is
    /// reported at its second place (it would receive every event twice).
    static func targets(_ node: ConfigNode?) -> [NotifyTarget] {
        guard let elements = node?.array() else { return [] }
        var first: [String: String] = [:]
        var out: [NotifyTarget] = []
        for element in elements {
            guard let target = target(element) else { continue }
            if let earlier = first[target.key] {
                element.report("the same target is already defined by \(earlier)")
            } else {
                first[target.key] = element.path
                out.append(target)
            }
        }
        return out
    }

    private static func target(_ node: ConfigNode) -> NotifyTarget? {
        guard let object = node.object(keys: keys) else { return nil }
        let present = kinds.filter(object.has)
        var kind: NotifyTarget.Kind?
        switch present.count {
        case 0:
            node.report("needs a target: exec (a program and its arguments) or alertmanager (a URL)")
        case 1:
            if let exec = object["exec"] {
                kind = argv(exec).map(NotifyTarget.Kind.exec)
            } else if let url = object["alertmanager"] {
                kind = baseURL(url).map(NotifyTarget.Kind.alertmanager)
            }
        default:
            node.report("has both exec and alertmanager; a target takes exactly one (write two targets)")
        }
        let severities = object["severity"].map(severities)
        let rule = object["rule"].map(glob)
        let sensor = object["sensor"].map(glob)
        let host = object["host"].map(glob)
        let timeout = object["timeout"].map { $0.duration(positive: true) } ?? NotifyTarget.defaultTimeout
        guard let kind, let timeout else { return nil }
        if let severities, severities == nil { return nil }
        if let rule, rule == nil { return nil }
        if let sensor, sensor == nil { return nil }
        if let host, host == nil { return nil }
        return NotifyTarget(
            kind: kind,
            filter: NotifyFilter(
                severities: severities ?? nil, rule: rule ?? nil, sensor: sensor ?? nil, host: host ?? nil),
            timeout: timeout)
    }

    /// `exec`: a non-empty array of strings whose first is an absolute path (no shell and no
    /// `PATH` search: the unit's environment decides nothing).
    private static func argv(_ node: ConfigNode) -> [String]? {
        guard let elements = node.array() else { return nil }
        let strings = elements.map { $0.string() }
        guard !elements.isEmpty else {
            node.report("must name a program: [\"/path/to/program\", \"argument\", …]")
            return nil
        }
        guard let argv = strings as? [String] else { return nil }
        guard argv[0].hasPrefix("/") else {
            elements[0].report("must be an absolute path (the program is started without a shell or PATH search)")
            return nil
        }
        return argv
    }

    /// `alertmanager`: an `http://` or `https://` URL with a host; a trailing `/` is dropped.
    private static func baseURL(_ node: ConfigNode) -> String? {
        guard let text = node.string() else { return nil }
        let scheme = ["http://", "https://"].first(where: text.lowercased().hasPrefix)
        guard let scheme else {
            node.report("must be an http:// or https:// URL, e.g. \"http://127.0.0.1:9093\"")
            return nil
        }
        let rest = text.dropFirst(scheme.count)
        if rest.isEmpty || rest.hasPrefix("/") || rest.contains(where: { $0.isWhitespace }) {
            node.report("must be an http:// or https:// URL with a host, e.g. \"http://127.0.0.1:9093\"")
            return nil
        }
        // The value itself is never repeated in a message: it may hold a password.
        if CredentialedURL(text).hasStrayAt {
            node.report("has an @ after the host: a user name or password holding /, ? or # must write it percent-encoded (%2F, %3F, %23)")
            return nil
        }
        var url = text
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// `severity`: a non-empty list of severities.
    private static func severities(_ node: ConfigNode) -> Set<Severity>? {
        guard let elements = node.array() else { return nil }
        if elements.isEmpty {
            node.report("must list at least one severity (leave it out to take every severity)")
            return nil
        }
        let chosen = elements.map { $0.choice("severity") as Severity? }
        guard let valid = chosen as? [Severity] else { return nil }
        return Set(valid)
    }

    private static func glob(_ node: ConfigNode) -> Glob? {
        guard let pattern = node.string() else { return nil }
        do {
            return try Glob(pattern)
        } catch {
            node.report(error.message)
            return nil
        }
    }
}
