import Glibc
import SensorRuntime

/// Decodes the keys of an `ipmi` source (SPEC §23) and checks its password file's mode.
package enum IPMIDecoder {
    /// The keys only an `ipmi` source takes.
    static let keys = [
        "hosts", "user", "password", "passwordFile", "credential", "privilege", "cipherSuite", "workarounds", "timeout",
    ]

    /// One settings value per BMC of `object` (one, in band, without `hosts`); nil after
    /// reporting an error.
    static func settings(_ object: ConfigObject, configDirectory: String) -> [IPMISourceSettings]? {
        var ok = true
        var base = IPMISourceSettings()
        if let node = object["user"] {
            if let text = node.string() { base.user = text } else { ok = false }
        }
        switch SecretSource.decode(object, configDirectory: configDirectory) {
        case .absent: break
        case .source(let source): base.password = source
        case .invalid: ok = false
        }
        if let node = object["privilege"] {
            if let p: IPMISourceSettings.Privilege = node.choice("privilege") { base.privilege = p } else { ok = false }
        }
        if let node = object["cipherSuite"] {
            if let n = node.number(), n >= 0, n <= 17, n == n.rounded() {
                base.cipherSuite = Int(n)
            } else {
                node.report("must be a cipher suite id from 0 to 17")
                ok = false
            }
        }
        if let node = object["workarounds"] {
            for item in node.array() ?? [] {
                guard let name = item.string() else { ok = false; continue }
                if IPMISourceSettings.workaroundFlags[name] == nil {
                    let known = IPMISourceSettings.workaroundFlags.keys.sorted().joined(separator: ", ")
                    item.report("unknown workaround \"\(name)\" (FreeIPMI's IPMI 2.0 ones: \(known))")
                    ok = false
                } else {
                    base.workarounds.append(name)
                }
            }
        }
        if let node = object["timeout"] {
            if let d = node.duration(positive: true) { base.timeout = d } else { ok = false }
        }
        guard let hostsNode = object["hosts"] else {
            return ok ? [base] : nil
        }
        var out: [IPMISourceSettings] = []
        var seen: Set<String> = []
        for item in hostsNode.array() ?? [] {
            guard let host = item.string() else { ok = false; continue }
            if host.isEmpty || host.contains("/") || host.contains(where: { $0 == " " || $0.isNewline }) {
                item.report("must be a host name or address, with :PORT when not 623")
                ok = false
            } else if !seen.insert(host).inserted {
                item.report("\"\(host)\" is listed twice")
                ok = false
            } else {
                var one = base
                one.host = host
                out.append(one)
            }
        }
        if out.isEmpty, ok {
            hostsNode.report("must list at least one BMC (leave hosts out for the local one, in band)")
            ok = false
        }
        if base.password == nil, ok {
            hostsNode.report("a BMC over the LAN needs passwordFile or credential")
            ok = false
        }
        return ok ? out : nil
    }
}
