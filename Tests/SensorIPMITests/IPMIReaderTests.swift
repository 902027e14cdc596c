import SensorConfig
import SensorCore
@testable import SensorIPMI
import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// One BMC through one session (SPEC §23), with a scripted transport.
@Suite struct IPMIReaderTests {
    let transport = FakeIPMITransport()

    let board = IPMIStateBoard()

    private func reader(
        host: String? = "bmc-r1-07", interval: Duration = .seconds(10), eventLog: IPMIEventLog? = nil
    ) -> IPMIReader {
        let settings = IPMISourceSettings(host: host, user: "monitor", password: .file("/x"), timeout: .seconds(5))
        let config = SourceConfiguration(kind: .ipmi, interval: interval, ipmi: settings)
        return IPMIReader(
            configuration: config, transport: transport, cacheDirectory: "/nonexistent",
            password: { _ throws(IPMIFailure) in "pw" }, eventLog: eventLog, board: board)
    }

    private func scriptSimulator() {
        transport.script.withLock {
            $0.records = IPMIRecord.simulator
            $0.readings = [0: .value(25), 1: .value(4800), 2: .value(12), 3: .value(300), 4: .states(0b01)]
            $0.meanings = [
                0: IPMIStateMeaning(severity: .nominal, text: "Presence detected"),
                1: IPMIStateMeaning(severity: .critical, text: "Power Supply Failure detected"),
            ]
        }
    }

    @Test func valuesThresholdsAndStatesOfOneBMCThroughOneSession() {
        scriptSimulator()
        let r = reader()
        let sensors = r.discover()
        #expect(sensors.map(\.label) == ["12V", "FAN1", "Inlet Temp", "PSU1 Power", "PSU1 Status"])
        let v = r.poll(at: .seconds(10)).first!
        #expect(v.values == [12, 4800, 25, 300, 1])
        #expect(v.faults.isEmpty)
        #expect(v.alarms.isEmpty)
        _ = r.poll(at: .seconds(20))
        #expect(transport.script.withLock { $0.opened } == 1)
        #expect(r.states[SensorID("ipmi:bmc-r1-07/PSU1_Status")]?.map(\.text) == ["Presence detected"])
        #expect(transport.script.withLock { $0.passwords } == ["pw"])
    }

    @Test func aWarningOrCriticalStateIsAnAlarmWithItsWordsANominalOneIsNot() {
        scriptSimulator()
        let r = reader()
        _ = r.discover()
        transport.script.withLock { $0.readings[4] = .states(0b11) }
        let v = r.poll(at: .seconds(10)).first!
        #expect(v.alarms(at: 4) == [HardwareAlarms(name: "alarm")!])
        #expect(v.value(at: 4) == 3)
        // The words go with the reading, for status, the stream and top (SPEC §23).
        #expect(v.states(at: 4) == ["Presence detected", "Power Supply Failure detected"])
        #expect(v.states(at: 0) == nil)
        #expect(
            r.states[SensorID("ipmi:bmc-r1-07/PSU1_Status")]?.map(\.text) == [
                "Presence detected", "Power Supply Failure detected",
            ])
        #expect(r.states[SensorID("ipmi:bmc-r1-07/PSU1_Status")]?.map(\.isAlarm) == [false, true])
        // Posted for the alarm's message: only the alarming states' words.
        #expect(board.alarmWords(of: SensorID("ipmi:bmc-r1-07/PSU1_Status")) == "Power Supply Failure detected")
        transport.script.withLock { $0.readings[4] = .states(0b01) }
        #expect(r.poll(at: .seconds(20)).first!.alarms.isEmpty)
        #expect(board.alarmWords(of: SensorID("ipmi:bmc-r1-07/PSU1_Status")) == nil)
    }

    @Test func aStalledBMCMakesItsSensorsFaultsInWordsAndTheSessionIsReopenedWithBackoffOfAtMostTwoIntervals() {
        scriptSimulator()
        let r = reader()
        _ = r.discover()
        transport.script.withLock { $0.readFailure = IPMIFailure(.timeout, "session timeout") }
        let v = r.poll(at: .seconds(10)).first!
        #expect(Set(v.faults.values) == ["bmc-r1-07: session timeout after 5 s"])
        #expect(v.faults.count == 5)
        // The dead session is closed at once: it holds none of the BMC's slots.
        #expect(transport.open == 0)
        transport.script.withLock { $0.openFailure = IPMIFailure(.timeout) }
        // Tried again at the next poll, then two intervals apart however long it stays silent:
        // a BMC that answers again is read within two intervals.
        let tries = { self.transport.script.withLock { $0.passwords.count } }
        for (time, expected) in [(20, 2), (30, 2), (40, 3), (50, 3), (60, 4), (70, 4), (80, 5), (90, 5), (100, 6)] {
            _ = r.poll(at: .seconds(Double(time)))
            #expect(tries() == expected, "at \(time) s")
        }
        transport.script.withLock {
            $0.openFailure = nil; $0.readFailure = nil
        }
        _ = r.poll(at: .seconds(110))
        #expect(tries() == 6)
        let back = r.poll(at: .seconds(120)).first!
        #expect(back.values == [12, 4800, 25, 300, 1])
        #expect(transport.open == 1)
        r.close()
        #expect(transport.open == 0)
    }

    @Test func aBMCNeverReadIsOneEntryWithTheReasonAndItsSensorsComeWhenItAnswers() {
        scriptSimulator()
        transport.script.withLock { $0.openFailure = IPMIFailure(.password, "password invalid") }
        let r = reader()
        let first = r.discover()
        #expect(first.map(\.id.rawValue) == ["ipmi:bmc-r1-07"])
        let v = r.poll(at: .seconds(10)).first!
        #expect(v.faults == [0: "bmc-r1-07: password refused"])
        #expect(r.failure == "bmc-r1-07: password refused")
        #expect(!r.devicesChanged())
        transport.script.withLock { $0.openFailure = nil }
        // The second failure in a row waits two intervals.
        _ = r.poll(at: .seconds(20))
        #expect(!r.devicesChanged())
        _ = r.poll(at: .seconds(30))
        #expect(r.devicesChanged())
        #expect(r.discover().count == 5)
        #expect(!r.devicesChanged())
        #expect(r.poll(at: .seconds(40)).first!.values == [12, 4800, 25, 300, 1])
    }

    @Test func aRefusedLoginBacksOffFurtherThanASilentBMCUpToHalfAMinute() {
        scriptSimulator()
        transport.script.withLock { $0.openFailure = IPMIFailure(.password, "password invalid") }
        let r = reader()
        _ = r.discover()
        let tries = { self.transport.script.withLock { $0.passwords.count } }
        #expect(tries() == 1)
        // 10 s apart, then 20, 30 (the cap), 30: a BMC may lock an account that keeps failing.
        var seen: [Int] = []
        for time in stride(from: 10, through: 130, by: 10) {
            let before = tries()
            _ = r.poll(at: .seconds(Double(time)))
            if tries() > before { seen.append(time) }
        }
        #expect(seen == [10, 30, 60, 90, 120])
    }

    @Test func closingTheReaderClosesItsSessionOnceAndItReadsNothingAfter() {
        scriptSimulator()
        do {
            let r = reader()
            _ = r.discover()
            #expect(transport.open == 1)
            r.close()
            #expect(transport.open == 0)
            _ = r.poll(at: .seconds(10))
            #expect(transport.open == 0)
        }
        // A reader that goes closes its session too.
        do {
            let r = reader()
            _ = r.discover()
            #expect(transport.open == 1)
        }
        #expect(transport.open == 0)
    }

    @Test func closeDuringAStalledCallReturnsAtOnceAndTheCallGivesTheSessionBack() async throws {
        scriptSimulator()
        let r = reader()
        _ = r.discover()
        transport.stallReads.store(true, ordering: .releasing)
        let done = EventCount()
        try DetachedThread.start("stalled poll") {
            _ = r.poll(at: .seconds(10))
            done.increment()
        }
        #expect(await transport.stalled.until(1))
        r.close()  // returns although the poll holds the reader
        #expect(transport.open == 1)
        transport.stallReads.store(false, ordering: .releasing)
        transport.releaseRead()
        #expect(await done.until(1))
        #expect(transport.open == 0)
    }

    @Test func aBMCWithoutAReadableEventLogKeepsItsSessionAndSensors() {
        scriptSimulator()
        transport.script.withLock { $0.logFailure = IPMIFailure(.other, "invalid command") }
        let r = reader(eventLog: IPMIEventLog(position: nil, sink: MemoryEventLogSink()))
        _ = r.discover()
        #expect(r.poll(at: .seconds(10)).first!.faults.isEmpty)
        #expect(r.poll(at: .seconds(20)).first!.values == [12, 4800, 25, 300, 1])
        #expect(transport.script.withLock { $0.opened } == 1)
    }

    @Test func inBandWithoutTheDeviceSaysHowToGetItAndStaysAFault() {
        let settings = IPMISourceSettings()
        let config = SourceConfiguration(kind: .ipmi, interval: .seconds(10), ipmi: settings)
        let r = IPMIReader(
            configuration: config, transport: FreeIPMITransport(devicePath: "/nonexistent/ipmi0"),
            cacheDirectory: "/nonexistent")
        #expect(r.discover().map(\.id.rawValue) == ["ipmi:local"])
        let v = r.poll(at: .seconds(10)).first!
        #expect(
            v.faults[0]
                == "local: no /dev/ipmi0: load the IPMI drivers (modprobe ipmi_si ipmi_devintf), or read the BMC over the LAN (hosts)"
        )
    }

    @Test func failuresAreSaidInWordsNamingTheBMC() {
        #expect(
            IPMIFailure(.timeout).words(bmc: "bmc-r1-07", timeout: .seconds(5))
                == "bmc-r1-07: session timeout after 5 s")
        #expect(IPMIFailure(.timeout).words(bmc: "b", timeout: .milliseconds(2500)) == "b: session timeout after 2.5 s")
        #expect(IPMIFailure(.password).words(bmc: "bmc-r1-07", timeout: .seconds(5)) == "bmc-r1-07: password refused")
        #expect(
            IPMIFailure(.noLibrary, "cannot load libfreeipmi (install the package libfreeipmi17): x").words(
                bmc: "b", timeout: .seconds(5))
                == "b: cannot load libfreeipmi (install the package libfreeipmi17): x")
    }

    @Test func newEventLogRecordsAreLoggedOnceTheFirstLooksAreCounted() {
        scriptSimulator()
        let old = IPMIEventLogEntry(
            recordID: 1, timestamp: 5, sensor: "Inlet Temp", event: "Upper Critical - going high", severity: .critical)
        transport.script.withLock { $0.eventLog = [old] }
        let sink = MemoryEventLogSink()
        let log = IPMIEventLog(position: nil, sink: sink)
        let r = reader(eventLog: log)
        _ = r.discover()
        _ = r.poll(at: .seconds(10))
        #expect(sink.logged == [])
        #expect(log.countedAtStart == 1)
        #expect(log.position == 1)
        // Kept at once: records added while the daemon is down are logged at its start.
        #expect(sink.kept == ["bmc-r1-07": 1])
        #expect(sink.counts.withLock { $0 } == ["bmc-r1-07": 1])
        let new = IPMIEventLogEntry(
            recordID: 2, timestamp: 9, sensor: "FAN1", event: "Lower Critical - going low", severity: .critical)
        transport.script.withLock { $0.eventLog = [old, new] }
        _ = r.poll(at: .seconds(20))
        _ = r.poll(at: .seconds(30))
        #expect(sink.logged == [new])
        #expect(sink.kept == ["bmc-r1-07": 2])
        #expect(sink.counts.withLock { $0 } == ["bmc-r1-07": 1])
        // Each read starts at the last record seen: one round trip when nothing is new.
        #expect(transport.script.withLock { $0.logReads } == [0, 1, 2])
        // A cleared log (the last record seen is gone) is read from its start, all of it new.
        let fresh = IPMIEventLogEntry(
            recordID: 1, timestamp: 20, sensor: "FAN1", event: "Lower Critical - going low", severity: .critical)
        transport.script.withLock { $0.eventLog = [fresh] }
        _ = r.poll(at: .seconds(40))
        #expect(sink.logged == [new, fresh])
        #expect(transport.script.withLock { $0.logReads.suffix(2) } == [2, 0])
        // A restart from the kept position logs none twice.
        let again = MemoryEventLogSink()
        let restarted = IPMIEventLog(position: 2, sink: again)
        #expect(restarted.newEntries([old, new]) == [])
        // A cleared log (the last record seen is gone): all of it is new.
        #expect(restarted.newEntries([old]) == [old])
    }
}
