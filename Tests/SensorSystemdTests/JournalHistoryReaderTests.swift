import SensorConfig
import SensorCore
import SensorRuntime
@testable import SensorSystemd
import Testing

/// The reader against real journal files, built in arrival order the way journal-remote
/// writes them when several hosts send to it.
@Suite(.enabled(if: JournalFileMaker.testsRun, "needs systemd-journal-remote (make deps installs it)"))
struct JournalHistoryReaderTests {
    static let t0: UInt64 = 1_795_558_400_000_000

    /// A sensorwatch alert entry of `host` at `t0 + seconds`, written by `uid` (journald's
    /// `_UID`; root, trusted, by default; nil: none).
    static func alert(
        _ seconds: UInt64, _ host: String?, _ state: EventKind = .firing, rule: String = "cpu-hot",
        sensor: String = "sim:cpu", uid: String? = "0"
    ) -> JournalFileMaker.Entry {
        JournalFileMaker.Entry(
            usec: t0 + seconds * 1_000_000, host: host,
            fields: [
                "SYSLOG_IDENTIFIER=sensorwatch", "MESSAGE_ID=" + JournalMessageID(state).rawValue,
                "MESSAGE=\(rule) \(state.rawValue)", "ALERT_RULE=\(rule)", "ALERT_STATE=\(state.rawValue)",
                "ALERT_SEVERITY=warning", "ALERT_THRESHOLD=80", "SENSOR_ID=\(sensor)", "SENSOR_LABEL=CPU",
                "SENSOR_VALUE=85", "SENSOR_UNIT=°C",
            ] + (uid.map { ["_UID=" + $0] } ?? []))
    }

    /// Host web1's events at 1, 3, 5 s arrived before db2's at 2, 4, 6 s: one file, in that order.
    static let arrivalOrder = [
        alert(1, "web1"), alert(3, "web1", .resolved), alert(5, "web1"),
        alert(2, "db2"), alert(4, "db2", .resolved), alert(6, "db2"),
    ]

    static func seconds(_ records: [JournalAlertRecord]) -> [UInt64] {
        records.map { ($0.realtimeMicroseconds - t0) / 1_000_000 }
    }

    @Test func eventsOfAFileInArrivalOrderComeOutOldestFirstWithTheirHosts() throws {
        let files = JournalFileMaker()
        let dir = try files.write(Self.arrivalOrder, directory: "remote")
        let records = try JournalHistoryReader(sources: [.directory(dir)]).read(.init())
        #expect(Self.seconds(records) == [1, 2, 3, 4, 5, 6])
        #expect(records.map(\.host) == ["web1", "db2", "web1", "db2", "web1", "db2"])
        #expect(records.map(\.kind) == [.firing, .firing, .resolved, .resolved, .firing, .firing])
        #expect(
            records[0]
                == JournalAlertRecord(
                    realtimeMicroseconds: Self.t0 + 1_000_000, host: "web1", kind: .firing, rule: "cpu-hot",
                    severity: .warning, sensor: "sim:cpu", label: "CPU", unit: "°C", value: 85, threshold: 80,
                    message: "cpu-hot firing"))
    }

    @Test func sinceKeepsEveryLaterEventAlsoThoseThatArrivedEarlier() throws {
        let files = JournalFileMaker()
        let dir = try files.write(Self.arrivalOrder, directory: "remote")
        let records = try JournalHistoryReader(sources: [.directory(dir)]).read(
            .init(sinceMicroseconds: Self.t0 + 2_000_000))
        #expect(Self.seconds(records) == [2, 3, 4, 5, 6])
        let late = try JournalHistoryReader(sources: [.directory(dir)]).read(
            .init(sinceMicroseconds: Self.t0 + 5_000_001))
        #expect(Self.seconds(late) == [6])
    }

    @Test func hostKeepsOneHostsEvents() throws {
        let files = JournalFileMaker()
        let dir = try files.write(Self.arrivalOrder, directory: "remote")
        let db2 = try JournalHistoryReader(sources: [.directory(dir)]).read(.init(host: "db2"))
        #expect(Self.seconds(db2) == [2, 4, 6])
        #expect(Set(db2.map(\.host)) == ["db2"])
        #expect(try JournalHistoryReader(sources: [.directory(dir)]).read(.init(host: "web")).isEmpty)
        let web1Resolved = try JournalHistoryReader(sources: [.directory(dir)]).read(
            .init(sinceMicroseconds: Self.t0 + 2_000_000, host: "web1"))
        #expect(Self.seconds(web1Resolved) == [3, 5])
    }

    @Test func aDirectoryHoldingACopyAddsNoDoubles() throws {
        let files = JournalFileMaker()
        let live = try files.write(Self.arrivalOrder, directory: "live")
        // An archive with part of the same entries, plus one re-sent within it.
        let archive = try files.write(
            [Self.alert(1, "web1"), Self.alert(2, "db2"), Self.alert(1, "web1")], directory: "archive")
        let records = try JournalHistoryReader(sources: [.directory(live), .directory(archive)]).read(.init())
        #expect(Self.seconds(records) == [1, 2, 3, 4, 5, 6])
    }

    @Test func directoriesAreMergedInTimeOrderAndOneNamedTwiceIsReadOnce() throws {
        let files = JournalFileMaker()
        let a = try files.write([Self.alert(1, "web1"), Self.alert(3, "web1", .resolved)], directory: "a")
        let b = try files.write([Self.alert(2, "db2"), Self.alert(4, "db2", .resolved)], directory: "b")
        let records = try JournalHistoryReader(sources: [.directory(b), .directory(a), .directory(b)]).read(.init())
        #expect(Self.seconds(records) == [1, 2, 3, 4])
        #expect(records.map(\.host) == ["web1", "db2", "web1", "db2"])
    }

    @Test func otherEntriesAreLeftOutAndAMissingHostnameIsEmpty() throws {
        let files = JournalFileMaker()
        var fault = Self.alert(2, "web1")
        fault.fields[1] = "MESSAGE_ID=" + JournalMessageID.sensorFault.rawValue
        var other = Self.alert(3, "web1")
        other.fields[0] = "SYSLOG_IDENTIFIER=kernel"
        let dir = try files.write(
            [Self.alert(4, nil), fault, other, Self.alert(1, "web1", rule: "dry-air", sensor: "sim:room")],
            directory: "remote")
        let records = try JournalHistoryReader(sources: [.directory(dir)]).read(.init())
        #expect(Self.seconds(records) == [1, 4])
        #expect(records.map(\.host) == ["web1", ""])
        #expect(Self.seconds(try JournalHistoryReader(sources: [.directory(dir)]).read(.init(rule: "dry-air"))) == [1])
        #expect(
            Self.seconds(try JournalHistoryReader(sources: [.directory(dir)]).read(.init(sensor: "sim:cpu"))) == [4])
    }

    @Test func sinceAndUntilIncludeTheirEnds() throws {
        let files = JournalFileMaker()
        let dir = try files.write(Self.arrivalOrder, directory: "remote")
        let records = try JournalHistoryReader(sources: [.directory(dir)]).read(
            .init(sinceMicroseconds: Self.t0 + 2_000_000, untilMicroseconds: Self.t0 + 5_000_000))
        #expect(Self.seconds(records) == [2, 3, 4, 5])
    }

    @Test func filesAreReadAndMergedWithDirectories() throws {
        let files = JournalFileMaker()
        let a = try files.write([Self.alert(3, "web1"), Self.alert(1, "web1")], directory: "a", file: "web1.journal")
        let b = try files.write([Self.alert(2, "db2")], directory: "b")
        let records = try JournalHistoryReader(sources: [.file(a + "/web1.journal"), .directory(b)]).read(.init())
        #expect(Self.seconds(records) == [1, 2, 3])
    }

    @Test func aMissingDirectoryOrFileIsAnErrorNamingIt() throws {
        let files = JournalFileMaker()
        let dir = try files.write([Self.alert(1, "web1")], directory: "remote")
        let missing = files.root + "/nowhere"
        let error = #expect(throws: SystemError.self) {
            try JournalHistoryReader(sources: [.directory(dir), .directory(missing)]).read(.init())
        }
        #expect(error?.path == missing)
        #expect(error?.description == missing + ": sd_journal_open_directory: No such file or directory")
        let fileError = #expect(throws: SystemError.self) {
            try JournalHistoryReader(sources: [.file(missing + ".journal")]).read(.init())
        }
        #expect(fileError?.description == missing + ".journal: sd_journal_open_files: No such file or directory")
    }

    /// Reads `sources` with `trust`; the records and the reasons of the entries left out.
    static func readTrusted(
        _ sources: [JournalHistoryReader.Source], trust: JournalTrust = .daemon
    ) throws -> (records: [JournalAlertRecord], lookAlikes: [String]) {
        var reasons: [String] = []
        let records = try JournalHistoryReader(sources: sources, trust: trust).read(.init()) { reasons.append($0) }
        return (records, reasons)
    }

    @Test func entriesAnotherUserWroteAreLeftOutAndCounted() throws {
        let files = JournalFileMaker()
        var unit = Self.alert(4, "web1", uid: "998")
        unit.fields.append("_SYSTEMD_UNIT=sensorwatch.service")
        let dir = try files.write(
            [
                Self.alert(1, "web1"), Self.alert(2, "web1", .resolved, uid: "65534"), Self.alert(3, "web1", uid: nil),
                unit,
            ],
            directory: "local")
        let (records, lookAlikes) = try Self.readTrusted([.directory(dir)])
        #expect(Self.seconds(records) == [1, 4])
        #expect(
            lookAlikes == [
                "written by _UID=65534, not a trusted unit or user",
                "no _UID or _SYSTEMD_UNIT (not written through journald)",
            ])
    }

    @Test func theTrustListsChooseWhoseEntriesAreListed() throws {
        let files = JournalFileMaker()
        let dir = try files.write([Self.alert(1, "web1"), Self.alert(2, "web1", uid: "998")], directory: "local")
        let (records, lookAlikes) = try Self.readTrusted([.directory(dir)], trust: JournalTrust(units: [], uids: [998]))
        #expect(Self.seconds(records) == [2])
        #expect(lookAlikes == ["written by _UID=0, not a trusted unit or user"])
    }

    @Test func aHostsFileHoldsOnlyThatHostsEntries() throws {
        let files = JournalFileMaker()
        let dir = try files.write(
            [Self.alert(1, "web1"), Self.alert(2, "db2"), Self.alert(3, nil)], directory: "remote",
            file: "remote-web1.journal")
        try files.write([Self.alert(4, "db2"), Self.alert(5, "web1")], directory: "remote", file: "remote-db2.journal")
        let (records, lookAlikes) = try Self.readTrusted([.directory(dir)])
        #expect(records.map { "\($0.host)@\(Self.seconds([$0])[0])" } == ["web1@1", "db2@4"])
        #expect(
            lookAlikes.sorted() == [
                "_HOSTNAME=(none) in web1's file remote-web1.journal",
                "_HOSTNAME=db2 in web1's file remote-web1.journal",
                "_HOSTNAME=web1 in db2's file remote-db2.journal",
            ])
        let (one, _) = try Self.readTrusted([.file(dir + "/remote-web1.journal")])
        #expect(Self.seconds(one) == [1])
    }

    @Test func anAddressesFileHoldsTheEntriesOfEveryHostBehindIt() throws {
        let files = JournalFileMaker()
        let dir = try files.write(
            [Self.alert(1, "web1"), Self.alert(2, "db2"), Self.alert(3, "db2", uid: "1000")], directory: "remote",
            file: "remote-127.0.0.1.journal")
        let (records, lookAlikes) = try Self.readTrusted([.directory(dir)])
        #expect(records.map(\.host) == ["web1", "db2"])
        #expect(lookAlikes == ["written by _UID=1000, not a trusted unit or user"])
    }
}

/// The ordering alone, without journal files.
struct JournalHistoryOrderTests {
    @Test func oldestFirstSortsByTimestampAndKeepsTheReadOrderOfTies() {
        func r(_ usec: UInt64, _ host: String) -> JournalAlertRecord {
            JournalAlertRecord(
                realtimeMicroseconds: usec, host: host, kind: .firing, rule: "r", severity: nil,
                sensor: "s", value: nil, threshold: nil)
        }
        let sorted = JournalHistoryReader.oldestFirst([r(3, "a"), r(1, "b"), r(3, "c"), r(2, "d"), r(3, "e")])
        #expect(sorted.map(\.host) == ["b", "d", "a", "c", "e"])
    }

    @Test func anEventReadTwiceIsKeptOnce() {
        func r(_ usec: UInt64, _ host: String, _ kind: EventKind = .firing) -> JournalAlertRecord {
            JournalAlertRecord(
                realtimeMicroseconds: usec, host: host, kind: kind, rule: "r", severity: nil,
                sensor: "s", value: 85, threshold: 80)
        }
        let merged = JournalHistoryReader.oldestFirst([
            r(1, "a"), r(2, "b"), r(2, "a"), r(1, "a"), r(2, "b"), r(2, "b", .resolved), r(3, "a"),
        ])
        #expect(merged == [r(1, "a"), r(2, "b"), r(2, "a"), r(2, "b", .resolved), r(3, "a")])
    }
}
