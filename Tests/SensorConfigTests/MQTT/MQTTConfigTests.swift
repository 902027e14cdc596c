import Glibc
@testable import SensorConfig
import SensorTestKit
import Testing

#if canImport(Glibc)
#endif

/// The `mqtt` section of the configuration (SPEC §24): defaults, every problem at its key
/// path, and never the password in a message.
struct MQTTConfigTests {
    @Test(arguments: [
        ("{ mqtt: {} }", ["mqtt.broker: required key is missing"]),
        (
            "{ mqtt: { broker: \"tcp://h\" } }",
            ["mqtt.broker: must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], e.g. \"mqtt://127.0.0.1:1883\""]
        ),
        (
            "{ mqtt: { broker: \"mqtt://u:secret@h\" } }",
            ["mqtt.broker: must not hold a user name or password: use username and passwordFile or credential"]
        ),
        ("{ mqtt: { broker: \"mqtt://h:99999\" } }", ["mqtt.broker: has a port that is not a number from 1 to 65535"]),
        (
            "{ mqtt: { broker: \"mqtt://h/x\" } }",
            ["mqtt.broker: must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], without a path"]
        ),
        ("{ mqtt: { broker: \"mqtt://\" } }", ["mqtt.broker: has no host"]),
        (
            "{ mqtt: { broker: \"mqtt://h\", password: \"hunter2\" } }",
            [
                "mqtt.password: a password does not belong in the configuration: put it in passwordFile (mode 0600) or a systemd credential (credential)"
            ]
        ),
        ("{ mqtt: { broker: \"mqtt://h\", qos: 2 } }", ["mqtt.qos: must be 0 or 1 (alert states always go at QoS 1)"]),
        (
            "{ mqtt: { broker: \"mqtt://h\", every: \"-1s\" } }",
            ["mqtt.every: invalid duration \"-1s\": must not be negative"]
        ),
        (
            "{ mqtt: { broker: \"mqtt://h\", topicPrefix: \"a/#\" } }",
            ["mqtt.topicPrefix: must not hold the MQTT wildcards + or #"]
        ),
        ("{ mqtt: { broker: \"mqtt://h\", topicPrefix: \"/a\" } }", ["mqtt.topicPrefix: must not start or end with /"]),
        (
            "{ mqtt: { broker: \"mqtt://h\", discoveryPrefix: true } }",
            ["mqtt.discoveryPrefix: expected a topic prefix such as \"homeassistant\", or false for no discovery"]
        ),
        ("{ mqtt: { broker: \"mqtt://h\", username: \"\" } }", ["mqtt.username: must be a user name, not empty"]),
        ("{ mqtt: { broker: \"mqtt://h\", credential: \"mqtt\" } }", ["mqtt: a password needs a username"]),
        (
            "{ mqtt: { broker: \"mqtt://h\", username: \"u\", credential: \"a/b\" } }",
            ["mqtt.credential: must name a systemd credential (LoadCredential=NAME:…), without a /"]
        ),
        ("{ mqtt: { broker: \"mqtt://h\", ca: \"ca.pem\" } }", ["mqtt.ca: applies to an mqtts:// broker only"]),
        (
            "{ mqtt: { broker: \"mqtt://h\", clientID: \"x\" } }",
            ["mqtt.clientID: unknown key (did you mean \"clientId\"?)"]
        ),
    ])
    func reportsEachProblemAtItsKeyPath(text: String, expected: [String]) {
        #expect(TemporaryDirectory.configErrors(of: text) == expected.map { "c.json5: " + $0 })
    }

    @Test func takesSpecDefaults() throws {
        let files = TemporaryDirectory()
        let mqtt = try #require(
            try ConfigLoader.load(path: files.write("c.json5", "{ mqtt: { broker: \"mqtt://broker.lan\" } }")).mqtt)
        #expect(mqtt.broker == MQTTBrokerAddress(tls: false, host: "broker.lan", port: 1883))
        #expect(mqtt.topicPrefix == "sensorwatch")
        #expect(mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.qos == 1)
        #expect(mqtt.every == .seconds(10))
        #expect(mqtt.clientID == nil)
        #expect(mqtt.password == nil)
    }

    @Test func decodesEveryKey() throws {
        let files = TemporaryDirectory()
        _ = files.write("ca.pem", "x")
        let secret = files.write("pw", "s3cret\n")
        chmod(secret, 0o600)
        let mqtt = try #require(
            try ConfigLoader.load(
                path: files.write(
                    "c.json5",
                    """
                    { mqtt: { broker: "mqtts://[::1]:18883", ca: "ca.pem", username: "sw", passwordFile: "pw",
                              clientId: "me", topicPrefix: "lab/sw", discoveryPrefix: false, qos: 0, every: "0s" } }
                    """)
            ).mqtt)
        #expect(mqtt.broker == MQTTBrokerAddress(tls: true, host: "::1", port: 18883))
        #expect(mqtt.broker.description == "mqtts://[::1]:18883")
        #expect(mqtt.ca == files.path("ca.pem"))
        #expect(mqtt.password == .file(secret))
        #expect(mqtt.clientID == "me")
        #expect(mqtt.topicPrefix == "lab/sw")
        #expect(mqtt.discoveryPrefix == nil)
        #expect(mqtt.qos == 0)
        #expect(mqtt.every == .zero)
        #expect(MQTTBrokerAddress.parse("mqtts://h").map(\.port) == .success(8883))
    }

    @Test func aPasswordFileMustBeTheOwnersAlone() throws {
        let files = TemporaryDirectory()
        let secret = files.write("pw", "hunter2\n")
        chmod(secret, 0o644)
        _ = files.write("c.json5", "{ mqtt: { broker: \"mqtt://h\", username: \"u\", passwordFile: \"pw\" } }")
        let errors = files.configErrors("c.json5")
        // (The directory's prefix is taken off the lines: the absolute path is shown.)
        #expect(
            errors == [
                "c.json5: mqtt.passwordFile: \"pw\" has mode 0644: a password file must have mode 0600 or 0400 (chmod 600)"
            ])
        #expect(!errors.joined().contains("hunter2"))
        chmod(secret, 0o400)
        #expect(files.configErrors("c.json5").isEmpty)
        let missing = TemporaryDirectory.configErrors(
            of: "{ mqtt: { broker: \"mqtt://h\", username: \"u\", passwordFile: \"none\" } }")
        #expect(missing.count == 1 && missing[0].hasSuffix("No such file or directory"))
    }

    @Test func aPasswordInTheConfigurationIsNeverRepeated() {
        let errors = TemporaryDirectory.configErrors(
            of: "{ mqtt: { broker: \"mqtt://u:hunter2@h\", password: \"hunter2\" } }")
        #expect(errors.count == 2)
        #expect(!errors.joined().contains("hunter2"))
    }

    @Test func thePasswordComesFromTheFileOrTheCredentialWithoutItsNewline() throws {
        let files = TemporaryDirectory()
        let file = files.write("pw", "s3cr:et\r\n")
        chmod(file, 0o600)
        #expect(SecretSource.file(file).read(credentialsDirectory: nil) == .success("s3cr:et"))
        _ = files.write("creds/mqtt", "from-systemd\n")
        #expect(
            SecretSource.credential("mqtt").read(credentialsDirectory: files.path("creds"))
                == .success("from-systemd"))
        guard case .failure(let unset) = SecretSource.credential("mqtt").read(credentialsDirectory: nil) else {
            Issue.record("a credential without $CREDENTIALS_DIRECTORY was read")
            return
        }
        #expect(
            unset.message
                == "credential \"mqtt\": $CREDENTIALS_DIRECTORY is not set (LoadCredential=mqtt:FILE in the unit)")
        chmod(file, 0o640)
        guard case .failure(let open) = SecretSource.file(file).read(credentialsDirectory: nil) else {
            Issue.record("a password file of mode 0640 was read")
            return
        }
        #expect(open.message.hasSuffix("has mode 0640: a password file must have mode 0600 or 0400 (chmod 600)"))
        #expect(!open.message.contains("s3cr:et"))
    }
}
