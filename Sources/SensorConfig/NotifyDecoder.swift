import SensorCore
import SensorRuntime

/// Turns the `notify` array of a configuration into ``NotifyTarget`` values (SPEC §17).
/// `run` ignores them; `check` and `notify` report every problem at its key path.
enum NotifyDecoder {
    private static let kinds = ["exec", "alertmanager"]
    private static let keys = kinds + ["severity", "rule", "sensor", "host", "timeout", "giveUp"]

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
        let giveUp = object["giveUp"].map { $0.duration(positive: true) } ?? NotifyTarget.defaultGiveUp
        guard let kind, let timeout, let giveUp else { return nil }
        if let severities, severities == nil { return nil }
        if let rule, rule == nil { return nil }
        if let sensor, sensor == nil { return nil }
        if let host, host == nil { return nil }
        return NotifyTarget(
            kind: kind,
            filter: NotifyFilter(
                severities: severities ?? nil, rule: rule ?? nil, sensor: sensor ?? nil, host: host ?? nil),
            timeout: timeout, giveUp: giveUp)
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
            node.report(
                "has an @ after the host: a user name or password holding /, ? or # must write it percent-encoded (%2F, %3F, %23)"
            )
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

    /// The top-level `trust: { units, uids }` (SPEC §17): each list given replaces the
    /// default one, a list left out keeps it. A unit is a name such as `sensorwatch.service`;
    /// a uid a whole number from 0 to 4294967294 (4294967295 is no user). Trusting nobody
    /// is an error: notify would deliver nothing and history list nothing.
    static func trust(_ node: ConfigNode?) -> JournalTrust {
        guard let node, let object = node.object(keys: ["units", "uids"]) else { return .daemon }
        var trust = JournalTrust.daemon
        var valid = true
        func list<T: Hashable>(_ key: String, _ decode: (ConfigNode) -> T?) -> Set<T>? {
            guard let member = object[key] else { return nil }
            guard let elements = member.array() else {
                valid = false
                return nil
            }
            let decoded = elements.map(decode)
            if decoded.contains(nil) { valid = false }
            return Set(decoded.compactMap { $0 })
        }
        if let units = list("units", unitName) { trust.units = units }
        if let uids = list("uids", uid) { trust.uids = uids }
        if valid, trust.units.isEmpty, trust.uids.isEmpty {
            node.report("trusts no unit and no uid: notify would deliver nothing and history list nothing")
        }
        return trust
    }

    private static func unitName(_ node: ConfigNode) -> String? {
        guard let name = node.string() else { return nil }
        guard !name.isEmpty, name.contains("."), !name.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            node.report("expected a unit name such as \"sensorwatch.service\", found \"\(name)\"")
            return nil
        }
        return name
    }

    private static func uid(_ node: ConfigNode) -> UInt32? {
        guard let n = node.integer() else { return nil }
        guard n >= 0, n < Int64(UInt32.max) else {
            node.report("expected a uid from 0 to 4294967294, found \(n)")
            return nil
        }
        return UInt32(n)
    }
}
