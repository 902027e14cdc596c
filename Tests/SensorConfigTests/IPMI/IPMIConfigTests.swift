#if canImport(Glibc)
import Glibc
#endif
@testable import SensorConfig
import SensorTestKit
import Testing

/// An `ipmi` source's keys (SPEC §23): one configuration per BMC, secrets only from a file
/// of mode 0600/0400 or a credential.
struct IPMIConfigTests {
    private func load(_ text: String, passwordMode: mode_t = 0o600) -> (Configuration?, [String]) {
        let files = TemporaryDirectory()
        let pw = files.write("bmc.pass", "secret\n")
        chmod(pw, passwordMode)
        files.write("c.json5", text)
        do {
            return (try ConfigLoader.load(path: files.path("c.json5")), [])
        } catch {
            return (nil, files.lines(error))
        }
    }

    @Test func hostsBecomeOneSourcePerBMCWithTheSharedSettings() throws {
        let (config, errors) = load(
            """
            { sources: [{ type: "ipmi", hosts: ["bmc-r1-01", "10.0.4.12:6230"], user: "monitor",
              passwordFile: "bmc.pass", privilege: "operator", interval: "10s", timeout: "2s",
              workarounds: ["opensesspriv"] }] }
            """)
        #expect(errors == [])
        let sources = try #require(config?.sources)
        #expect(sources.map(\.ipmi?.host) == ["bmc-r1-01", "10.0.4.12:6230"])
        #expect(sources.map(\.ipmi?.bmc) == ["bmc-r1-01", "10.0.4.12:6230"])
        #expect(sources.allSatisfy { $0.kind == .ipmi && $0.interval == .seconds(10) })
        #expect(sources[0].ipmi?.user == "monitor")
        #expect(sources[0].ipmi?.privilege == .operator)
        #expect(sources[0].ipmi?.timeout == .seconds(2))
        #expect(sources[0].ipmi?.workarounds == ["opensesspriv"])
        guard case .file(let path) = sources[0].ipmi?.password else {
            Issue.record("no password file: \(String(describing: sources[0].ipmi?.password))")
            return
        }
        #expect(path.hasSuffix("/bmc.pass"))
    }

    @Test func withoutHostsItIsTheLocalBMCInBandWithTheDefaults() throws {
        let (config, errors) = load("{ sources: [{ type: \"ipmi\" }] }")
        #expect(errors == [])
        let source = try #require(config?.sources.first)
        #expect(source.ipmi?.host == nil)
        #expect(source.ipmi?.bmc == "local")
        #expect(source.interval == .seconds(10))
        #expect(source.ipmi?.timeout == .seconds(5))
        #expect(source.ipmi?.privilege == .user)
        #expect(source.ipmi?.cipherSuite == 3)
    }

    @Test func aPasswordInTheConfigurationIsAnErrorThatDoesNotRepeatIt() {
        let (_, errors) = load(
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"], password: \"hunter2\", passwordFile: \"bmc.pass\" }] }")
        #expect(errors.count == 1)
        #expect(errors.first?.contains("sources[0].password: a password does not belong in the configuration") == true)
        #expect(!errors.joined().contains("hunter2"))
    }

    @Test func aPasswordFileOthersMayReadIsRefused() {
        let (_, errors) = load(
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"], passwordFile: \"bmc.pass\" }] }", passwordMode: 0o644)
        #expect(errors.count == 1)
        #expect(
            errors.first?.contains("has mode 0644: a password file must have mode 0600 or 0400 (chmod 600)") == true)
        #expect(!errors.joined().contains("secret"))
    }

    @Test(arguments: [
        (
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"] }] }",
            "sources[0].hosts: a BMC over the LAN needs passwordFile or credential"
        ),
        (
            "{ sources: [{ type: \"ipmi\", hosts: [] , credential: \"bmc\" }] }",
            "sources[0].hosts: must list at least one BMC (leave hosts out for the local one, in band)"
        ),
        (
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\", \"b\"], credential: \"bmc\" }] }",
            "sources[0].hosts[1]: \"b\" is listed twice"
        ),
        (
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"], credential: \"bmc\", workarounds: [\"nope\"] }] }",
            "sources[0].workarounds[0]: unknown workaround \"nope\" (FreeIPMI's IPMI 2.0 ones: authcap, integritycheckvalue, intel20, nochecksumcheck, opensesspriv, sun20, supermicro20)"
        ),
        (
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"], credential: \"a/b\" }] }",
            "sources[0].credential: must name a systemd credential (LoadCredential=NAME:…), without a /"
        ),
        (
            "{ sources: [{ type: \"ipmi\", hosts: [\"b\"], credential: \"bmc\", privilege: \"root\" }] }",
            "sources[0].privilege: unknown privilege \"root\" (expected user, operator or admin)"
        ),
        ("{ sources: [{ type: \"thermal\", hosts: [\"b\"] }] }", "sources[0].hosts: only ipmi sources take hosts"),
        ("{ sources: [{ type: \"ipmi\", root: \"/x\" }] }", "sources[0].root: root does not apply to ipmi sources"),
    ])
    func mistakesAreNamedAtTheirKey(text: String, error: String) {
        let (_, errors) = load(text)
        #expect(errors.map { String($0.drop { $0 != ":" }.dropFirst(2)) } == [error])
    }
}
