#if canImport(Glibc)
import Glibc
#endif
import SensorCore
import Testing
@testable import SensorSystemd

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

    @Test func writesPrefixedLinesToTheFallbackWithoutSocketAndSwitchesBack() {
        let journal = FakeJournal()
        let sink = journal.sink()
        sink.emit(Self.event)
        sink.emit(SensorFault(time: .seconds(2), sensor: Self.event.sensor, reason: "EIO"))
        #expect(journal.sends.isEmpty)
        #expect(journal.fallbackLines() == [
            "<4>sensorwatch: no journal socket at \(journal.socketPath); writing events to stderr",
            "<2>hot firing: sim:cpu 85 °C above 80 °C",
            "<4>sensor sim:cpu read failed: EIO",
        ])
        journal.createSocket()
        sink.emit(Self.event)
        #expect(journal.fallbackLines() == [])
        #expect(journal.sends.count == 2)
        #expect(journal.sends.last?.first == "MESSAGE=journal reachable again; 2 entries went to stderr, 0 sends failed so far")
        #expect(sink.statistics.fallbackWrites == 2)
    }

    @Test func countsAndReportsAFailedSendAndFallsBack() {
        let journal = FakeJournal()
        journal.createSocket()
        journal.setResult(-ECONNREFUSED)
        let sink = journal.sink()
        sink.emit(Self.event)
        sink.emit(Self.event)
        #expect(journal.fallbackLines() == [
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
        sink.log(priority: 3, message: "bad config:\nrules[0].above: not a number", id: .configReloadFailed)
        // Every line carries the prefix, or systemd would log the second one at the default priority.
        #expect(journal.fallbackLines().suffix(2) == ["<3>bad config:", "<3>rules[0].above: not a number"])
    }
}
