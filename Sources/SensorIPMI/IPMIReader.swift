public import SensorConfig
public import SensorCore
public import SensorRuntime
import Synchronization

/// Reads one BMC (SPEC §23) through one session kept open: its sensors each poll, its
/// thresholds as limits, its discrete sensors' warning and critical states as alarms
/// (§16b), and its System Event Log's new records (``IPMIEventLog``).
///
/// The source's poll thread is the BMC's own, so a BMC that stalls delays none other. A
/// session that fails (no answer within `timeout`, the password refused, unreachable) is
/// closed; the sensors read as faults with the reason in words (`bmc-r1-07: session timeout
/// after 5 s`), or, before the BMC was ever read, one entry `ipmi:<bmc>` does; the session
/// is opened again at the next poll, then after 2, 4, … intervals (at most 30 s apart, or
/// the interval when it is longer). The session is closed by ``close()`` (the poll thread
/// calls it when its source stops) and when the reader goes.
public final class IPMIReader: SensorReader {
    /// `ipmi`.
    public let source = SourceKind.ipmi.idPrefix
    private let configuration: SourceConfiguration
    private let settings: IPMISourceSettings
    private let transport: any IPMITransport
    /// Where the SDR cache of this BMC is kept.
    private let cachePath: String
    private let password: @Sendable (IPMISourceSettings) throws(IPMIFailure) -> String
    private let eventLog: IPMIEventLog?
    /// Where the discrete sensors' states go after each poll, for the alerts' messages.
    private let board: IPMIStateBoard?
    private let state: Mutex<State>
    /// Set by a ``close()`` that found a call in progress: that call closes the session
    /// when it returns.
    private let closing = Atomic<Bool>(false)

    private struct State {
        var session: (any IPMISession)?
        /// The sensors of the SDR last read; kept while the session is down, so the sensors
        /// fault rather than vanish.
        var map: IPMISensorMap?
        /// Whether the last discovery listed `map`'s sensors (else the one BMC entry).
        var listedMap = false
        var failure: IPMIFailure?
        var failures = 0
        var retryAt: Timestamp?
        /// A rediscovery is needed (the first session, or a new SDR after reopening).
        var changed = false
        /// The asserted states of each discrete sensor at the last poll.
        var states: [SensorID: [IPMIStateMeaning]] = [:]
        var closed = false
    }

    /// - Parameters:
    ///   - configuration: an `ipmi` source (with its ``IPMISourceSettings``).
    ///   - transport: opens sessions (``FreeIPMITransport`` for real BMCs).
    ///   - cacheDirectory: where the SDR caches are kept (`$STATE_DIRECTORY`).
    ///   - password: reads the password when a session opens (``IPMIPassword/read(_:credentialsDirectory:)``).
    ///   - eventLog: where new System Event Log records go; nil: the log is not read.
    ///   - board: where the discrete sensors' states go after each poll (nil: nowhere).
    public init(
        configuration: SourceConfiguration, transport: any IPMITransport, cacheDirectory: String,
        password: @escaping @Sendable (IPMISourceSettings) throws(IPMIFailure) -> String = { s throws(IPMIFailure) in
            try IPMIPassword.read(s)
        },
        eventLog: IPMIEventLog? = nil, board: IPMIStateBoard? = nil
    ) {
        self.board = board
        self.configuration = configuration
        settings = configuration.ipmi ?? IPMISourceSettings()
        self.transport = transport
        cachePath = cacheDirectory + "/sdr-" + IPMISensorMap.idName(settings.bmc) + ".cache"
        self.password = password
        self.eventLog = eventLog
        state = Mutex(State())
    }

    deinit { state.withLock { Self.shut(&$0) } }

    /// The entry that stands for the BMC while none of its sensors is known.
    private var bmcEntry: SensorInfo {
        SensorInfo(id: SensorID(source: source, name: settings.bmc), label: settings.bmc, quantity: .state)
    }

    /// The BMC's sensors (opening a session first when there is none and a try is due), or
    /// the one entry `ipmi:<bmc>` while none is known.
    public func discover() -> [SensorInfo] {
        state.withLock { s in
            if s.session == nil, !s.closed, s.retryAt == nil { connect(&s, at: nil) }
            s.changed = false
            closeIfAsked(&s)
            if let map = s.map {
                s.listedMap = true
                return map.entries.map(\.info)
            }
            s.listedMap = false
            return [bmcEntry]
        }
    }

    /// Reads every sensor through the session (reopening it when a try is due), then the new
    /// event log records; faults in words when the BMC cannot be read.
    public func poll(at time: Timestamp) -> [SensorValues] {
        let (values, log, states) = state.withLock {
            s -> (SensorValues, [IPMIEventLogEntry], [SensorID: [IPMIStateMeaning]]) in
            defer { closeIfAsked(&s) }
            if s.session == nil, !s.closed, s.retryAt.map({ time >= $0 }) ?? true { connect(&s, at: time) }
            let count = s.listedMap ? (s.map?.entries.count ?? 0) : 1
            var values = SensorValues(time: time, capacity: count)
            guard let session = s.session, let map = s.map, s.listedMap else {
                // Down, or up since a discovery that listed the one BMC entry (the next
                // discovery, which devicesChanged asks for, lists the sensors).
                let reason = s.failure?.words(bmc: settings.bmc, timeout: settings.timeout)
                for _ in 0..<count {
                    if let reason { values.appendFault(.other(reason)) } else { values.appendUnread() }
                }
                return (values, [], [:])
            }
            for (i, entry) in map.entries.enumerated() {
                let reading: IPMIReading
                do throws(IPMIFailure) {
                    reading = try session.read(entry.index)
                } catch {
                    fail(&s, error, at: time)
                    let reason = error.words(bmc: settings.bmc, timeout: settings.timeout)
                    for _ in i..<map.entries.count { values.appendFault(.other(reason)) }
                    return (values, [], [:])
                }
                append(reading, of: entry, to: &values, states: &s.states, session: session)
            }
            var log: [IPMIEventLogEntry] = []
            if let eventLog {
                do throws(IPMIFailure) {
                    log = eventLog.newEntries(try readEventLog(session, from: eventLog.position ?? 0))
                } catch  where error.kind == .timeout {
                    fail(&s, error, at: time)
                } catch {
                    // A BMC without a readable event log still has sensors: its session stays.
                }
            }
            return (values, log, s.states)
        }
        // Posted before the cycle is committed, so an alarm's message finds this poll's states.
        if !states.isEmpty { board?.post(states) }
        // Written outside the lock: the journal may be slow, the next poll should not wait.
        eventLog?.write(log, bmc: settings.bmc)
        return [values]
    }

    private func append(
        _ reading: IPMIReading, of entry: IPMISensorMap.Entry, to values: inout SensorValues,
        states: inout [SensorID: [IPMIStateMeaning]],
        session: any IPMISession
    ) {
        switch reading {
        case .value(let v) where entry.info.quantity == .state:
            values.append(v)
        case .value(let v):
            let value = IPMISensorMap.convert(v, unit: entry.unit)
            if entry.info.quantity == .temperature, !configuration.plausible.admits(value) {
                values.appendFault("implausible value")
            } else {
                values.append(value)
            }
        case .states(let bits):
            let meanings = (0..<15).filter { bits & (1 << $0) != 0 }.map {
                session.meaning(eventReadingType: entry.eventReadingType, sensorType: entry.sensorType, offset: $0)
            }
            states[entry.info.id] = meanings
            let alarmed = meanings.contains(where: \.isAlarm)
            values.append(
                stateBits: Double(bits), words: meanings.map(\.text),
                alarms: alarmed ? [HardwareAlarms(name: "alarm")!] : [])
        case .unavailable(let why):
            values.appendFault(.other(settings.bmc + ": " + why))
        }
    }

    /// The log from the last record seen on (one round trip when nothing is new); from its
    /// start when that record is gone (the log was cleared).
    private func readEventLog(_ session: any IPMISession, from start: Int) throws(IPMIFailure) -> [IPMIEventLogEntry] {
        guard start != 0 else { return try session.eventLog(from: 0) }
        do throws(IPMIFailure) {
            return try session.eventLog(from: start)
        } catch  where error.kind == .other {
            return try session.eventLog(from: 0)
        }
    }

    /// Opens a session and reads the SDR; on failure, notes why and when to try again.
    private func connect(_ s: inout State, at time: Timestamp?) {
        var opened: (any IPMISession)?
        do throws(IPMIFailure) {
            let session = try transport.open(
                settings, interval: configuration.interval, password: try password(settings))
            opened = session
            let records = try session.records(cachePath: cachePath)
            let map = IPMISensorMap(bmc: settings.bmc, records: records, admits: configuration.admits)
            if map != s.map || !s.listedMap { s.changed = true }
            s.map = map
            s.session = session
            s.failure = nil
            s.failures = 0
            s.retryAt = nil
        } catch {
            opened?.close()
            fail(&s, error, at: time)
        }
    }

    /// Closes the session after `error` and sets the time of the next try: the next poll, then
    /// twice the interval apart. A BMC that does not answer is asked again after at most two
    /// intervals however long it was gone, so it is read again within two intervals of its
    /// return (issue 37); asking costs one datagram on its own thread. A BMC that refuses the
    /// login backs off further, up to 30 s, as a BMC may lock an account that keeps failing.
    private func fail(_ s: inout State, _ error: IPMIFailure, at time: Timestamp?) {
        s.session?.close()
        s.session = nil
        s.failure = error
        s.failures += 1
        let interval = configuration.interval
        let cap = error.kind == .timeout ? interval * 2 : max(interval, .seconds(30))
        let factor = 1 << min(s.failures - 1, 10)
        s.retryAt = (time ?? .zero) + min(interval * factor, cap)
    }

    /// A BMC's calls time out on their own (`timeout`); nothing here is given up.
    public func isolateBlockedRead(now: Timestamp) -> Bool { false }

    /// Nothing is left out: a sensor of a unit sensorwatch does not read is not a sensor here.
    public var leftOut: [String] { [] }

    /// True once a session opened since a discovery that could not list the sensors (or
    /// the SDR changed): the poll thread rediscovers.
    public func devicesChanged() -> Bool { state.withLock { $0.changed } }

    /// Why the BMC cannot be read now, in words; nil while it can.
    public var failure: String? {
        state.withLock { s in s.failure?.words(bmc: settings.bmc, timeout: settings.timeout) }
    }

    /// The asserted states of each discrete sensor at the last poll (`Presence detected`,
    /// `Power Supply Failure detected`), with FreeIPMI's judgement of each.
    public var states: [SensorID: [IPMIStateMeaning]] { state.withLock { $0.states } }

    /// Closes the session (the BMC frees its slot); the reader reads nothing after it. Never
    /// waits for a call in progress (a stalled BMC must not hold up a stop): that call
    /// closes the session when it returns.
    public func close() {
        closing.store(true, ordering: .releasing)
        _ = state.withLockIfAvailable { Self.shut(&$0) }
    }

    private static func shut(_ s: inout State) {
        s.closed = true
        s.session?.close()
        s.session = nil
    }

    /// Closes the session if a ``close()`` came while a call ran.
    private func closeIfAsked(_ s: inout State) {
        if closing.load(ordering: .acquiring) { Self.shut(&s) }
    }
}
