public import Observation
public import SensorRuntime

/// What is true now of every sensor: its latest reading (value or fault, and when) and its
/// health — the one place the daemon keeps "now". Whatever reports the present (`STATUS=`,
/// the sensor-fault and recovery entries, a metrics file) observes it; nothing else keeps
/// its own copy.
///
/// Observation is fine-grained: each quantity has a revision bumped by every commit that
/// carries it (a loop that observes `humidity` is not woken by a temperature commit),
/// ``faulty`` changes only when a sensor starts or stops failing, ``sensorCount`` only when
/// a discovery changes it.
///
/// Because observation wake-ups coalesce (several commits before the observer runs give one
/// wake-up) and `onChange` fires in `willSet` (before the new value is stored), the latest
/// value alone is not enough to see every sample. So `SensorData` also keeps, while a
/// ``TrackingLoop`` drains it, the log of cycles committed since the last drain.
@DaemonActor
@Observable
public final class SensorData {
    /// Every sensor failing now, with the reason and the time it started failing.
    public private(set) var faulty: [SensorID: SensorFault] = [:]
    /// How many sensors the sources listed at their last discovery.
    public private(set) var sensorCount = 0
    /// The whole second (of run time) of the newest cycle committed: changes at most once
    /// a second, so an observer that needs the present only every few seconds (the metrics
    /// file) is woken once a second rather than at every commit.
    public private(set) var latestSecond: Int64 = 0
    /// Bumped by ``beat()``: lets a loop wake up when no sensor changes (watchdog).
    public private(set) var heartbeat: UInt64 = 0
    /// Each source's readings, sorted by source, found by its list's identity: a few
    /// sources, and a commit finds its own without hashing a key or copying another's
    /// readings out. Not observed itself: reading it under observation at every commit was a
    /// large share of `simulate`'s cost a cycle (bench/README.md); ``observeSources()``
    /// stands for it.
    @ObservationIgnored private var sources: [SourceReadings] = []
    /// Bumped by every discovery and removal; a commit bumps its quantities' revisions.
    private var listsRevision: UInt64 = 0
    private var temperatureRevision: UInt64 = 0
    private var humidityRevision: UInt64 = 0
    private var pressureRevision: UInt64 = 0
    /// Fans, voltages, power, current (SPEC §16a) and discrete states (§23) share one:
    /// nothing observes them apart.
    private var electricalRevision: UInt64 = 0

    /// The quantities logged for the loop, as ``Quantity/bit``s.
    @ObservationIgnored private var logged: UInt8 = 0
    @ObservationIgnored private var log: [PollCycle] = []

    /// A model that knows no sensors yet.
    public init() {}

    /// Grows with every cycle committed that carries this quantity (an observed access).
    public func revision(of quantity: Quantity) -> UInt64 {
        switch quantity {
        case .temperature: return temperatureRevision
        case .humidity: return humidityRevision
        case .pressure: return pressureRevision
        case .fan, .voltage, .power, .current, .state: return electricalRevision
        }
    }

    /// The latest reading of a sensor (a fault is a fault, not a value); nil if it has none
    /// or is not listed.
    public func latest(of id: SensorID) -> Sample? {
        observeSources()
        for source in sources {
            guard let i = source.list.positions[id] else { continue }
            var sample = source.latest.sample(at: i, of: id)
            sample?.time = source.time(at: i)
            return sample
        }
        return nil
    }

    /// What is known now of every source's sensors, sorted by source: their latest reads and
    /// latest successful reads (the metrics file's values). Read under
    /// `withObservationTracking`, it observes every commit, discovery and removal.
    public var readings: [SourceReadings] {
        observeSources()
        return sources
    }

    /// Reads what ``readings`` reads without building it: under `withObservationTracking`,
    /// an observer that only needs to hear of a commit, discovery or removal (not to sort
    /// and copy every source at every poll).
    package func touchReadings() { observeSources() }

    /// What stands for ``sources`` under observation: every commit bumps the revision of
    /// each quantity it carries, and every discovery and removal ``listsRevision``. One
    /// observed change a commit, not two (bench/README.md).
    private func observeSources() {
        _ = (listsRevision, temperatureRevision, humidityRevision, pressureRevision, electricalRevision)
    }

    /// The sensor with this id, if a source lists it.
    public func sensor(_ id: SensorID) -> SensorInfo? {
        observeSources()
        for source in sources {
            if let i = source.list.positions[id] { return source.list.sensors[i] }
        }
        return nil
    }

    /// Commits one poll cycle: the latest readings and health of its sensors, the revision
    /// of each quantity it carries, and the log for the loop that drains those quantities.
    public func commit(_ cycle: PollCycle) {
        announce(cycle.list.quantityBits)
        store(cycle)
    }

    /// Commits a poll's cycles in order, as ``commit(_:)`` each, but with the revision of
    /// each quantity they carry bumped once, before the first: a change announced at every
    /// cycle was a large share of `simulate`'s cost a cycle, where one poll hands over
    /// hundreds (bench/README.md). Observers hear of them together, as they would of cycles
    /// committed before they ran.
    public func commit(_ cycles: [PollCycle]) {
        announce(cycles.reduce(0) { $0 | $1.list.quantityBits })
        for i in cycles.indices { store(cycles[i]) }
    }

    /// Bumps the revisions of the quantities in `bits` (``Quantity/bit``s). Before the
    /// change, as an observed property's `willSet` is: an observer's `onChange` still reads
    /// the old readings (SPEC §5's pitfall, kept as it was).
    private func announce(_ bits: UInt8) {
        if bits & Quantity.temperature.bit != 0 { temperatureRevision &+= 1 }
        if bits & Quantity.humidity.bit != 0 { humidityRevision &+= 1 }
        if bits & Quantity.pressure.bit != 0 { pressureRevision &+= 1 }
        if bits & ~(Quantity.temperature.bit | Quantity.humidity.bit | Quantity.pressure.bit) != 0 {
            electricalRevision &+= 1
        }
    }

    /// Stores one announced cycle.
    private func store(_ cycle: PollCycle) {
        let list = cycle.list
        let readings = cycle.readings
        adopt(list)
        guard list.count > 0, let i = index(of: list) else { return }
        // Health first (rare: only when something fails now or failed before), then the values.
        if !readings.faults.isEmpty || sources[i].faultyCount > 0 { sources[i].faultyCount = noteHealth(cycle) }
        sources[i].merge(readings)
        if logged & list.quantityBits != 0 { log.append(cycle) }
        let second = cycle.time.nanoseconds / 1_000_000_000
        if second > latestSecond { latestSecond = second }
    }

    /// Takes a source's newly discovered list (nothing happens if it is the current one):
    /// sensors it no longer names are gone — neither listed nor failing — and new ones have
    /// no reading yet. Returns what appeared and went since the source's last list (nothing
    /// for its first). When sensors went, the list goes into the cycle log at once, with
    /// nothing read, so the rule engine resolves their alerts (SPEC §20) even when no reading
    /// of its quantities follows.
    @discardableResult
    public func adopt(_ list: SensorList) -> [SensorPresence] {
        let key = list.source
        if index(of: list) != nil { return [] }
        let found = sources.firstIndex { $0.list.source == key }
        let previous = found.map { sources[$0] }
        let before = previous?.list
        forgetFaults(of: previous, keeping: list)
        var now = SourceReadings(list: list, previous: previous)
        now.faultyCount = list.sensors.reduce(0) { $0 + (faulty[$1.id] == nil ? 0 : 1) }
        listsRevision &+= 1
        if let found {
            sources[found] = now
        } else {
            sources.insert(now, at: sources.firstIndex { $0.list.source > key } ?? sources.endIndex)
        }
        recount()
        guard let before else { return [] }
        let time = list.discovered
        let gone = before.sensors.filter { list.positions[$0.id] == nil }
        if gone.contains(where: { logged & $0.quantity.bit != 0 }) {
            log.append(PollCycle(list: list, readings: SensorValues(time: time, unread: list.count), tick: false))
        }
        return list.sensors.filter { before.positions[$0.id] == nil }.map {
            SensorPresence(time: time, sensor: $0, appeared: true)
        }
            + gone.map { SensorPresence(time: time, sensor: $0, appeared: false) }
    }

    /// Drops a source that stopped: its sensors are neither listed nor failing any more.
    public func remove(source key: String) {
        guard let i = sources.firstIndex(where: { $0.list.source == key }) else { return }
        listsRevision &+= 1
        let gone = sources.remove(at: i)
        forgetFaults(of: gone, keeping: nil)
        recount()
    }

    /// Wakes loops that observe ``heartbeat``.
    public func beat() { heartbeat &+= 1 }

    /// Keeps the cycle log for these quantities from now on (a loop calls this before it
    /// runs; the newest loop's set wins, so quantities no rule needs any more stop piling up).
    package func startLogging(_ quantities: Set<Quantity>) { logged = quantities.reduce(0) { $0 | $1.bit } }

    /// Takes every logged cycle, in commit order, and empties the log.
    package func takeLogged() -> [PollCycle] {
        guard !log.isEmpty else { return [] }
        let taken = log
        log.removeAll(keepingCapacity: true)
        return taken
    }

    /// Whether cycles are waiting to be taken.
    package var hasLogged: Bool { !log.isEmpty }

    // MARK: - Parts

    /// Where the source whose list is `list` is (by identity, indices only: a closure over
    /// the elements would copy each source's readings to look at its list).
    private func index(of list: SensorList) -> Int? {
        sources.indices.first { sources[$0].list === list }
    }

    private func recount() {
        let count = sources.reduce(0) { $0 + $1.list.count }
        if count != sensorCount { sensorCount = count }
    }

    /// Removes from ``faulty`` the sensors of `source` that `list` no longer names.
    private func forgetFaults(of source: SourceReadings?, keeping list: SensorList?) {
        guard let source, source.faultyCount > 0 else { return }
        for info in source.list.sensors where faulty[info.id] != nil && list?.positions[info.id] == nil {
            faulty[info.id] = nil
        }
    }

    /// Records sensors of the cycle that start or stop failing; returns how many of its
    /// sensors are failing now.
    private func noteHealth(_ cycle: PollCycle) -> Int {
        let readings = cycle.readings
        let list = cycle.list
        var count = 0
        var changes: [(SensorID, SensorFault?)] = []
        for (i, info) in list.sensors.enumerated() {
            let was = faulty[info.id] != nil
            if let reason = readings.faults[i] {
                count += 1
                if !was {
                    changes.append((info.id, SensorFault(time: cycle.time, sensor: info, reason: reason.description)))
                }
            } else if was {
                if readings.wasRead(i) { changes.append((info.id, nil)) } else { count += 1 }
            }
        }
        for (id, fault) in changes { faulty[id] = fault }
        return count
    }
}
