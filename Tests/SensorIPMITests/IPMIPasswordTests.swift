#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorTestKit
import Testing

@testable import SensorIPMI

/// SPEC §23: the password from a file of mode 0600/0400 or a systemd credential.
@Suite struct IPMIPasswordTests {
    let files = TemporaryDirectory()

    @Test func aPasswordFilesTrailingNewlineIsNotPartOfIt() throws {
        let path = files.write("pass", "s3cret\n")
        chmod(path, 0o600)
        #expect(try IPMIPassword.read(IPMISourceSettings(host: "b", passwordFile: path)) == "s3cret")
        chmod(path, 0o400)
        #expect(try IPMIPassword.read(IPMISourceSettings(host: "b", passwordFile: path)) == "s3cret")
    }

    @Test func aPasswordFileOthersMayReadIsRefusedWithoutSayingThePassword() {
        let path = files.write("pass", "s3cret\n")
        chmod(path, 0o644)
        #expect {
            try IPMIPassword.read(IPMISourceSettings(host: "b", passwordFile: path))
        } throws: { error in
            let words = (error as? IPMIFailure)?.words(bmc: "b", timeout: .seconds(5)) ?? ""
            return words.contains("has mode 0644: a password file must be readable by its owner only") && !words.contains("s3cret")
        }
    }

    @Test func aCredentialIsReadFromTheCredentialsDirectory() throws {
        files.write("creds/bmc", "fromsystemd\n")
        let settings = IPMISourceSettings(host: "b", credential: "bmc")
        #expect(try IPMIPassword.read(settings, credentialsDirectory: files.path("creds")) == "fromsystemd")
        #expect(throws: IPMIFailure.self) { try IPMIPassword.read(settings, credentialsDirectory: nil) }
    }
}
