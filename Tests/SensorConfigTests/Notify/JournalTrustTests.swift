@testable import SensorConfig
import SensorTestKit
import Testing

/// Who may write the entries notify delivers and history lists (SPEC §17, Trust): only
/// journald's own fields count, and a collector's file ties its entries to its host.
struct JournalTrustTests {
    typealias Entry = JournalTrust.Entry

    @Test func theDaemonsUnitIsTrustedWhateverItsUser() {
        #expect(
            JournalTrust.daemon.verdict(Entry(unit: "sensorwatch.service", uid: "998", hostname: "web1")) == .trusted)
    }

    @Test func rootIsTrustedOutsideTheUnit() {
        #expect(JournalTrust.daemon.verdict(Entry(unit: "session-3.scope", uid: "0", hostname: "web1")) == .trusted)
        #expect(JournalTrust.daemon.verdict(Entry(uid: "0")) == .trusted)
    }

    @Test func anotherUserOutsideTheUnitWritesLookAlikes() {
        #expect(
            JournalTrust.daemon.verdict(Entry(unit: "session-3.scope", uid: "65534", hostname: "web1"))
                == .lookAlike("written by _UID=65534 _SYSTEMD_UNIT=session-3.scope, not a trusted unit or user"))
        #expect(
            JournalTrust.daemon.verdict(Entry(uid: "1000"))
                == .lookAlike("written by _UID=1000, not a trusted unit or user"))
    }

    @Test func anEntryWithoutTrustedFieldsIsALookAlike() {
        #expect(
            JournalTrust.daemon.verdict(Entry(hostname: "web1"))
                == .lookAlike("no _UID or _SYSTEMD_UNIT (not written through journald)"))
    }

    @Test(arguments: ["", "0x0", "-0", "+0", " 0", "0 ", "4294967296", "zero"])
    func aUIDThatIsNotADecimalNumberIsNotRoot(uid: String) {
        #expect(JournalTrust.daemon.verdict(Entry(uid: uid)) != .trusted)
    }

    @Test func theTrustListsReplaceTheDefaults() {
        let trust = JournalTrust(units: ["sensorwatch-lab.service"], uids: [998])
        #expect(trust.verdict(Entry(unit: "sensorwatch-lab.service", uid: "1")) == .trusted)
        #expect(trust.verdict(Entry(unit: "x.service", uid: "998")) == .trusted)
        #expect(trust.verdict(Entry(unit: "sensorwatch.service", uid: "1")) != .trusted)
        #expect(trust.verdict(Entry(unit: "x.service", uid: "0")) != .trusted)
    }

    @Test func anEntryInAnotherHostsFileIsALookAlikeEvenFromRoot() {
        let entry = Entry(
            unit: "sensorwatch.service", uid: "0", hostname: "db2", fileHost: "web1", fileName: "remote-web1.journal")
        #expect(JournalTrust.daemon.verdict(entry) == .lookAlike("_HOSTNAME=db2 in web1's file remote-web1.journal"))
        var missing = entry
        missing.hostname = nil
        #expect(
            JournalTrust.daemon.verdict(missing) == .lookAlike("_HOSTNAME=(none) in web1's file remote-web1.journal"))
        var own = entry
        own.hostname = "web1"
        #expect(JournalTrust.daemon.verdict(own) == .trusted)
    }

    @Test func theHostsOwnFileStillNeedsTrustedFields() {
        #expect(JournalTrust.daemon.verdict(Entry(uid: "65534", hostname: "web1", fileHost: "web1")) != .trusted)
    }

    @Test(arguments: [
        ("remote-web1.journal", "web1"),
        ("remote-web1.example.com.journal", "web1.example.com"),
        ("remote-web1@0123456789abcdef0123456789abcdef-0000000000000001-0005f3a0b1c2d3e4.journal", "web1"),
        ("remote-web1@0123-01-02.journal~", "web1"),
        ("remote-CN=web1.journal", "CN=web1"),
    ])
    func aRemoteFileBelongsToTheHostItIsNamedAfter(name: String, host: String) {
        #expect(JournalTrust.fileHost(name: name) == host)
    }

    @Test(arguments: [
        "remote-127.0.0.1.journal", "remote-10.1.2.3@abc.journal", "remote-::1.journal", "remote-fe80::1.journal~",
        "remote.journal", "system.journal", "user-1000.journal", "remote-.journal", "remote-web1.journal.bak",
        "remote-web1",
    ])
    func aFileNamedAfterAnAddressOrNoHostBelongsToNoHost(name: String) {
        #expect(JournalTrust.fileHost(name: name) == nil)
    }
}
