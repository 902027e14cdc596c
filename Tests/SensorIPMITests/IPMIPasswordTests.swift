#if canImport(Glibc)
import Glibc
#endif
import SensorConfig
@testable import SensorIPMI
import SensorTestKit
import Testing

/// SPEC §23: the password from a file of mode 0600/0400 or a systemd credential.
@Suite struct IPMIPasswordTests {
    let files = TemporaryDirectory()

    @Test func aPasswordFilesTrailingNewlineIsNotPartOfIt() throws {
        let path = files.write("pass", "s3cret\n")
        chmod(path, 0o600)
        #expect(try IPMIPassword.read(IPMISourceSettings(host: "b", password: .file(path))) == "s3cret")
        chmod(path, 0o400)
        #expect(try IPMIPassword.read(IPMISourceSettings(host: "b", password: .file(path))) == "s3cret")
    }

    @Test func aPasswordFileOthersMayReadIsRefusedWithoutSayingThePassword() {
        let path = files.write("pass", "s3cret\n")
        chmod(path, 0o644)
        #expect {
            try IPMIPassword.read(IPMISourceSettings(host: "b", password: .file(path)))
        } throws: { error in
            let words = (error as? IPMIFailure)?.words(bmc: "b", timeout: .seconds(5)) ?? ""
            return words.contains("has mode 0644: a password file must have mode 0600 or 0400")
                && !words.contains("s3cret")
        }
    }

    @Test func aCredentialIsReadFromTheCredentialsDirectory() throws {
        files.write("creds/bmc", "fromsystemd\n")
        let settings = IPMISourceSettings(host: "b", password: .credential("bmc"))
        #expect(try IPMIPassword.read(settings, credentialsDirectory: files.path("creds")) == "fromsystemd")
        #expect(throws: IPMIFailure.self) { try IPMIPassword.read(settings, credentialsDirectory: nil) }
    }
}

/// `check` on a machine that cannot read a configuration's BMCs (SPEC §23): warnings.
@Suite struct IPMICheckTests {
    private func configuration(_ sources: [SourceConfiguration]) -> Configuration {
        Configuration(path: "c.json5", interval: .seconds(1), sources: sources, rules: [])
    }

    @Test func noLibraryNamesThePackageAndNoDeviceSaysHowToGetIt() {
        let inBand = SourceConfiguration(kind: .ipmi, interval: .seconds(10), ipmi: IPMISourceSettings())
        let warnings = IPMICheck.warnings(
            configuration([inBand]), devicePath: "/nonexistent/ipmi0",
            libraryProblem: { "cannot load libfreeipmi (install the package libfreeipmi17): x" })
        #expect(
            warnings == [
                "c.json5: ipmi sources: cannot load libfreeipmi (install the package libfreeipmi17): x",
                "c.json5: ipmi source without hosts: local: no /dev/ipmi0: load the IPMI drivers (modprobe ipmi_si ipmi_devintf), or read the BMC over the LAN (hosts)",
            ])
    }

    @Test func aConfigurationWithoutBMCsOrWithEverythingThereHasNone() {
        let lan = SourceConfiguration(kind: .ipmi, interval: .seconds(10), ipmi: IPMISourceSettings(host: "b"))
        #expect(IPMICheck.warnings(configuration([lan]), libraryProblem: { nil }) == [])
        #expect(IPMICheck.warnings(configuration([]), libraryProblem: { "x" }) == [])
    }
}
