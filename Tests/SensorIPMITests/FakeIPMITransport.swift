import Dispatch
import SensorConfig
@testable import SensorIPMI
import SensorRuntime
import Synchronization

/// A BMC for the reader's tests: its records and readings scripted, its failures injected,
/// every open and close counted (so a test sees no session left open).
final class FakeIPMITransport: IPMITransport {
    struct Script {
        var records: [IPMIRecord] = []
        var readings: [Int: IPMIReading] = [:]
        var meanings: [Int: IPMIStateMeaning] = [:]
        /// Thrown by the next opens, while set.
        var openFailure: IPMIFailure?
        /// Thrown by every read, while set (the session then is dead).
        var readFailure: IPMIFailure?
        var eventLog: [IPMIEventLogEntry] = []
        /// The `start` of each event log read.
        var logReads: [Int] = []
        /// Thrown by every event log read, while set.
        var logFailure: IPMIFailure?
        var opened = 0
        var closed = 0
        var passwords: [String] = []
    }

    let script = Mutex(Script())
    /// While set, each read waits for ``releaseRead()`` (a BMC that stalls mid-call).
    let stallReads = Atomic<Bool>(false)
    /// Reads that began while ``stallReads`` was set.
    let stalled = EventCount()
    private let gate = DispatchSemaphore(value: 0)

    /// Lets one stalled read return.
    func releaseRead() { gate.signal() }

    /// Called by a session's read: waits while reads stall.
    func maybeStall() {
        guard stallReads.load(ordering: .acquiring) else { return }
        stalled.increment()
        gate.wait()
    }

    func open(
        _ settings: IPMISourceSettings, interval: Duration, password: String
    ) throws(IPMIFailure) -> any IPMISession {
        let failure = script.withLock { s -> IPMIFailure? in
            s.passwords.append(password)
            if s.openFailure == nil { s.opened += 1 }
            return s.openFailure
        }
        if let failure { throw failure }
        return FakeSession(transport: self)
    }

    var open: Int { script.withLock { $0.opened - $0.closed } }
}

/// A session of ``FakeIPMITransport``.
final class FakeSession: IPMISession {
    let transport: FakeIPMITransport
    var isClosed = false

    init(transport: FakeIPMITransport) { self.transport = transport }

    func records(cachePath: String) throws(IPMIFailure) -> [IPMIRecord] { transport.script.withLock { $0.records } }

    func read(_ index: Int) throws(IPMIFailure) -> IPMIReading {
        transport.maybeStall()
        let (failure, reading) = transport.script.withLock { s in (s.readFailure, s.readings[index]) }
        if let failure { throw failure }
        return reading ?? .unavailable("no reading")
    }

    func meaning(eventReadingType: UInt8, sensorType: UInt8, offset: Int) -> IPMIStateMeaning {
        transport.script.withLock { $0.meanings[offset] }
            ?? IPMIStateMeaning(severity: .nominal, text: "state \(offset)")
    }

    func eventLog(from start: Int) throws(IPMIFailure) -> [IPMIEventLogEntry] {
        let (log, failure) = transport.script.withLock { s in
            s.logReads.append(start)
            return (s.eventLog, s.logFailure)
        }
        if let failure { throw failure }
        guard start != 0 else { return log }
        guard let i = log.firstIndex(where: { $0.recordID == start }) else {
            throw IPMIFailure(.other, "record not present")
        }
        return Array(log[i...])
    }

    func close() {
        precondition(!isClosed, "a session is closed once")
        isClosed = true
        transport.script.withLock { $0.closed += 1 }
    }
}

/// The event log's sink for tests: what was logged and kept.
final class MemoryEventLogSink: IPMIEventLogSink {
    let state = Mutex<(logged: [IPMIEventLogEntry], kept: [String: Int])>(([], [:]))
    let counts = Mutex<[String: Int]>([:])

    func counted(_ records: Int, bmc: String) { counts.withLock { $0[bmc, default: 0] += records } }

    func log(_ entries: [IPMIEventLogEntry], bmc: String) { state.withLock { $0.logged += entries } }
    func keep(position recordID: Int, bmc: String) { state.withLock { $0.kept[bmc] = recordID } }

    var logged: [IPMIEventLogEntry] { state.withLock { $0.logged } }
    var kept: [String: Int] { state.withLock { $0.kept } }
}

extension IPMIRecord {
    /// The simulator's records (../shared/fixtures/ipmi): five threshold sensors and a PSU.
    static let simulator: [IPMIRecord] = [
        IPMIRecord(
            recordID: 2, name: "Inlet Temp", sensorType: 1, eventReadingType: 1, baseUnit: 1, isThreshold: true,
            thresholds: ["unc": 40, "uc": 45, "unr": 50]),
        IPMIRecord(
            recordID: 4, name: "FAN1", sensorType: 4, eventReadingType: 1, baseUnit: 18, isThreshold: true,
            thresholds: ["lnc": 1200, "lc": 600, "lnr": 300]),
        IPMIRecord(
            recordID: 5, name: "12V", sensorType: 2, eventReadingType: 1, baseUnit: 4, isThreshold: true,
            thresholds: ["lnc": 11.4, "lc": 10.8, "unc": 12.6, "uc": 13.2]),
        IPMIRecord(
            recordID: 6, name: "PSU1 Power", sensorType: 3, eventReadingType: 1, baseUnit: 6, isThreshold: true,
            thresholds: ["uc": 800]),
        IPMIRecord(
            recordID: 7, name: "PSU1 Status", sensorType: 8, eventReadingType: 0x6f, baseUnit: 0, isThreshold: false),
    ]
}
