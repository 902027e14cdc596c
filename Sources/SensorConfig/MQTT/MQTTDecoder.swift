#if canImport(Glibc)
import Glibc
#endif
import SensorRuntime

/// Turns the `mqtt` section of a configuration into an ``MQTTConfiguration`` (SPEC §24).
/// `run` ignores it; `check` and `mqtt` report every problem at its key path, and no
/// message ever repeats what a password could be in.
enum MQTTDecoder {
    private static let keys = [
        "broker", "ca", "username", "passwordFile", "credential", "clientId", "topicPrefix", "discoveryPrefix",
        "qos", "every", "password",
    ]

    /// The section of `node`; nil when absent or after a reported error.
    static func section(_ node: ConfigNode?, configDirectory: String) -> MQTTConfiguration? {
        guard let node, let object = node.object(keys: keys) else { return nil }
        var valid = true
        var broker: MQTTBrokerAddress?
        if let brokerNode = object.required("broker"), let text = brokerNode.string() {
            switch MQTTBrokerAddress.parse(text) {
            case .success(let address): broker = address
            case .failure(let error): brokerNode.report(error.message)
            }
        }
        var ca: String?
        if let caNode = object["ca"], let text = caNode.string() {
            let path = ConfigPath.absolute(ConfigPath.resolve(text, against: configDirectory))
            if broker?.tls == false {
                caNode.report("applies to an mqtts:// broker only")
                valid = false
            } else if access(path, R_OK) != 0 {
                caNode.report("cannot read \"\(text)\" (\(path)): \(ErrnoText.words(errno))")
                valid = false
            } else {
                ca = path
            }
        }
        let username = object["username"].flatMap { nonEmpty($0, what: "a user name") }
        var password: SecretSource?
        switch SecretSource.decode(object, configDirectory: configDirectory) {
        case .absent: break
        case .source(let source): password = source
        case .invalid: valid = false
        }
        if password != nil, username == nil, object["username"] == nil {
            node.report("a password needs a username")
            valid = false
        }
        let clientID = object["clientId"].flatMap { nonEmpty($0, what: "a client id") }
        let topicPrefix = object["topicPrefix"].map(topicLevel) ?? MQTTConfiguration.defaultTopicPrefix
        var discoveryPrefix: String?? = .some(MQTTConfiguration.defaultDiscoveryPrefix)
        if let discoveryNode = object["discoveryPrefix"] {
            if case .bool(false) = discoveryNode.value {
                discoveryPrefix = .some(nil)
            } else if case .string = discoveryNode.value {
                discoveryPrefix = topicLevel(discoveryNode).map { .some($0) } ?? nil
            } else {
                discoveryNode.report("expected a topic prefix such as \"homeassistant\", or false for no discovery")
                discoveryPrefix = nil
            }
        }
        var qos: Int? = 1
        if let qosNode = object["qos"] {
            qos = qosNode.integer().flatMap { q -> Int? in
                guard q == 0 || q == 1 else {
                    qosNode.report("must be 0 or 1 (alert states always go at QoS 1)")
                    return nil
                }
                return Int(q)
            }
        }
        let every = object["every"].map { $0.duration(positive: false) } ?? MQTTConfiguration.defaultEvery
        if object["username"] != nil, username == nil { valid = false }
        if object["clientId"] != nil, clientID == nil { valid = false }
        guard valid, let broker, let topicPrefix, let discoveryPrefix, let qos, let every else { return nil }
        return MQTTConfiguration(
            broker: broker, ca: ca, username: username, password: password, clientID: clientID,
            topicPrefix: topicPrefix, discoveryPrefix: discoveryPrefix, qos: qos, every: every)
    }

    private static func nonEmpty(_ node: ConfigNode, what: String) -> String? {
        guard let text = node.string() else { return nil }
        guard !text.isEmpty else {
            node.report("must be \(what), not empty")
            return nil
        }
        return text
    }

    /// A prefix of topics: not empty, no wildcard (`+`, `#`), no `/` at either end.
    private static func topicLevel(_ node: ConfigNode) -> String? {
        guard let text = nonEmpty(node, what: "a topic prefix") else { return nil }
        if text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }) {
            node.report("must not hold the MQTT wildcards + or #")
            return nil
        }
        if text.hasPrefix("/") || text.hasSuffix("/") {
            node.report("must not start or end with /")
            return nil
        }
        return text
    }
}
