#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import SensorNotify
import SensorRuntime
@testable import SensorSystemd
import SensorTestKit
import Testing

struct JournalAlertSinkTests {
    static let event = AlertEvent(
        time: .seconds(1), kind: .firing, rule: "hot", ruleIndex: 0,
        sensor: SensorInfo(id: "sim:cpu", quantity: .temperature), severity: .critical,
        value: 85, threshold: 80, condition: .above)

    @Test func sendsToTheJournalWhenItsSocketExists() {
        let journal = FakeJournal()
        journal.createSocket()
        let sink = journal.sink()
        sink.emit(Self.event)
        #expect(journal.sends.count == 1)
        #expect(journal.sends.first?.first == "MESSAGE=hot firing: sim:cpu 85 °C above 80 °C")
        #expect(journal.fallbackLines() == [])
        #expect(sink.statistics.sent == 1)
    }

    /// `run` on a terminal: the journal takes the events and the person sees them too; a
    /// sensor fault or a daemon message goes to the journal only.
    @Test func eventsTheJournalTookAreEchoedToATerminalFaultsAndMessagesAreNot() {
        let journal = FakeJournal()
        journal.createSocket()
        let sink = journal.sink(echo: true)
        sink.emit(Self.event)
        sink.emit(SensorFault(time: .seconds(2), sensor: Self.event.sensor, reason: "EIO"))
        sink.log(LogEntry(level: .info, message: "configuration reloaded", kind: nil, location: CodeLocation()))
        #expect(journal.sends.count == 3)
        #expect(journal.fallbackLines() == ["<2>hot firing: sim:cpu 85 °C above 80 °C"])
    }

    /// SPEC §17, docs/decisions.md: a running `notify` is woken after each alert entry the
    /// journal took, not after a fault or a daemon message, and not for an entry that went
    /// to the fallback (notify would find nothing in the journal).
    @Test func alertEventsTheJournalTookWakeNotifyFaultsMessagesAndFallbackLinesDoNot() {
        let journal = FakeJournal()
        let wakes = TemporaryDirectory(prefix: "sensorwatch-wake")
        let listener = FakeJournal.boundDatagramSocket(at: wakes.path("wake"))
        #expect(listener >= 0)
        defer { close(listener) }
        let sink = journal.sink(wake: NotifyWakeSender(path: wakes.path("wake")))
        sink.emit(Self.event)
        #expect(Self.datagrams(listener) == 0)
        journal.createSocket()
        sink.emit(SensorFault(time: .seconds(2), sensor: Self.event.sensor, reason: "EIO"))
        sink.log(LogEntry(level: .info, message: "configuration reloaded", kind: nil, location: CodeLocation()))
        #expect(Self.datagrams(listener) == 0)
        sink.emit(Self.event)
        sink.emit(Self.event)
        #expect(Self.datagrams(listener) == 2)
    }

    /// How many datagrams are queued on `fd` (read, without waiting).
    static func datagrams(_ fd: Int32) -> Int {
        var n = 0
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) >= 0 { n += 1 }
        return n
    }

    @Test func writesPrefixedLinesToTheFallbackWithoutSocketAndSwitchesBack() {
        let journal = FakeJournal()
        let sink = journal.sink()
        sink.emit(Self.event)
        sink.emit(SensorFault(time: .seconds(2), sensor: Self.event.sensor, reason: "EIO"))
        #expect(journal.sends.isEmpty)
        #expect(
            journal.fallbackLines() == [
                "<4>sensorwatch: no journal socket at \(journal.socketPath); writing events to stderr",
                "<2>hot firing: sim:cpu 85 °C above 80 °C",
                "<4>sensor sim:cpu read failed: EIO",
            ])
        journal.createSocket()
        sink.emit(Self.event)
        #expect(journal.fallbackLines() == [])
        #expect(journal.sends.count == 2)
        #expect(
            journal.sends.last?.first
                == "MESSAGE=journal reachable again; 2 entries went to stderr, 0 sends failed so far")
        #expect(sink.statistics.fallbackWrites == 2)
    }

    @Test func countsAndReportsAFailedSendAndFallsBack() {
        let journal = FakeJournal()
        journal.createSocket()
        journal.setResult(-ECONNREFUSED)
        let sink = journal.sink()
        sink.emit(Self.event)
        sink.emit(Self.event)
        #expect(
            journal.fallbackLines() == [
                "<4>sensorwatch: sending to the journal failed: Connection refused; writing events to stderr",
                "<2>hot firing: sim:cpu 85 °C above 80 °C",
                "<2>hot firing: sim:cpu 85 °C above 80 °C",
            ])
        var expected = JournalAlertSink.Statistics()
        expected.sendFailures = 2
        expected.fallbackWrites = 2
        expected.lastError = ECONNREFUSED
        #expect(sink.statistics == expected)
    }

    @Test func daemonMessageKeepsItsPriorityOnEveryFallbackLine() {
        let journal = FakeJournal()
        let sink = journal.sink()
        JournalLog(sink: sink).log(.error, "bad config:\nrules[0].above: not a number", kind: .configReloadFailed)
        // Every line carries the prefix, or systemd would log the second one at the default priority.
        #expect(journal.fallbackLines().suffix(2) == ["<3>bad config:", "<3>rules[0].above: not a number"])
    }

    @Test func daemonMessageIdComesFromItsKindNotFromItsLevel() {
        let journal = FakeJournal()
        journal.createSocket()
        let log = JournalLog(sink: journal.sink())
        log.log(.error, "metrics file cannot be written")
        log.log(.info, "state kept again", kind: .stateFile)
        log.log(.critical, "3 sensors are left unread", kind: .openFileLimit)
        let ids = journal.sends.map { $0.first { $0.hasPrefix("MESSAGE_ID=") } }
        #expect(
            ids == [nil, "MESSAGE_ID=274a6862aed047c088b8defc36102ea6", "MESSAGE_ID=5ceae26f25ee44e1a107894b4222b4f4"])
        #expect(
            journal.sends.map { $0.first { $0.hasPrefix("PRIORITY=") } } == ["PRIORITY=3", "PRIORITY=6", "PRIORITY=2"])
    }

    @Test func daemonMessageNamesTheCodeThatLoggedItAndEventsNameNone() {
        let journal = FakeJournal()
        journal.createSocket()
        let sink = journal.sink()
        let line = #line + 1
        JournalLog(sink: sink).log(.warning, "cannot keep alert state")
        sink.emit(Self.event)
        #expect(
            journal.sends[0].suffix(3) == [
                "CODE_FILE=SensorSystemdTests/JournalAlertSinkTests.swift", "CODE_LINE=\(line)",
                "CODE_FUNC=daemonMessageNamesTheCodeThatLoggedItAndEventsNameNone()",
            ])
        #expect(!journal.sends[1].contains { $0.hasPrefix("CODE_") })
    }
}
