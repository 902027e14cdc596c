import Observation

/// The latest reading of every sensor, observable per quantity.
///
/// Readings are split by quantity so that tracking is fine-grained: a loop that observes
/// `humidity` is not woken by a temperature commit. A reader commits a whole poll cycle as
/// one mutation per quantity it touches.
///
/// Because observation wake-ups coalesce (several commits before the observer runs give one
/// wake-up) and `onChange` fires in `willSet` (before the new value is stored), the latest
/// value alone is not enough to see every sample. So `SensorData` also keeps, for each
/// quantity a ``TrackingLoop`` drains, the log of cycles committed since the last drain.
@MainActor
@Observable
public final class SensorData {
    /// Temperature sensors' latest readings.
    public private(set) var temperature = QuantityReadings()
    /// Humidity sensors' latest readings.
    public private(set) var humidity = QuantityReadings()
    /// Pressure sensors' latest readings.
    public private(set) var pressure = QuantityReadings()
    /// Bumped by ``beat()``: lets a loop wake up when no sensor changes (watchdog).
    public private(set) var heartbeat: UInt64 = 0

    @ObservationIgnored private var logged: Set<Quantity> = []
    @ObservationIgnored private var log: [(sequence: UInt64, cycle: PollCycle)] = []
    @ObservationIgnored private var sequence: UInt64 = 0
    @ObservationIgnored private var splits: [String: Split] = [:]

    /// How a mixed source's sensor list divides by quantity.
    private struct Split {
        var discovery: UInt64
        var quantityOf: [SensorID: Quantity] = [:]
        /// Each quantity's sensors, and their positions in the source's list.
        var parts: [(quantity: Quantity, sensors: [SensorInfo], positions: [Int])] = []

        init(_ cycle: PollCycle) {
            discovery = cycle.discovery
            for quantity in Quantity.allCases {
                let positions = cycle.sensors.indices.filter { cycle.sensors[$0].quantity == quantity }
                if !positions.isEmpty { parts.append((quantity, positions.map { cycle.sensors[$0] }, positions)) }
            }
            // Only a list that really splits needs the per-sensor look-up.
            if parts.count > 1 {
                for info in cycle.sensors { quantityOf[info.id] = info.quantity }
            }
        }
    }

    public init() {}

    /// The readings of one quantity (an observed access).
    public func readings(of quantity: Quantity) -> QuantityReadings {
        switch quantity {
        case .temperature: return temperature
        case .humidity: return humidity
        case .pressure: return pressure
        }
    }

    /// Commits one poll cycle: updates the latest readings of each quantity it touches, one
    /// mutation per quantity, and logs it for the loop that drains that quantity.
    public func commit(_ cycle: PollCycle) {
        guard !cycle.sensors.isEmpty else { return }
        // How the sensor list divides by quantity is worked out once per discovery.
        let split: Split
        if cycle.discovery != 0, let known = splits[cycle.source], known.discovery == cycle.discovery {
            split = known
        } else {
            split = Split(cycle)
            if cycle.discovery != 0 { splits[cycle.source] = split }
        }
        if split.parts.count == 1 {
            apply(cycle, to: split.parts[0].quantity)
            return
        }
        // A source with several quantities (an IIO device, a scenario): split the cycle.
        for part in split.parts {
            if cycle.values != nil {
                apply(cycle.restricted(to: part.positions, sensors: part.sensors), to: part.quantity)
                continue
            }
            var piece = cycle
            piece.sensors = part.sensors
            piece.samples = cycle.samples.filter { split.quantityOf[$0.sensor] == part.quantity }
            apply(piece, to: part.quantity)
        }
    }

    private func apply(_ cycle: PollCycle, to quantity: Quantity) {
        switch quantity {
        case .temperature: Self.merge(cycle, into: &temperature)
        case .humidity: Self.merge(cycle, into: &humidity)
        case .pressure: Self.merge(cycle, into: &pressure)
        }
        if logged.contains(quantity) {
            sequence += 1
            log.append((sequence, cycle))
        }
    }

    private static func merge(_ cycle: PollCycle, into readings: inout QuantityReadings) {
        readings.revision &+= 1
        // A poll reads every sensor of its source, so its arrays replace the last ones whole
        // (O(1): the arrays are shared, not copied). A scenario poll with no sample of a
        // sensor keeps that sensor's previous one.
        if cycle.sampleCount == cycle.sensors.count {
            readings.sources[cycle.source] = .init(cycle)
            return
        }
        var kept = readings.sources[cycle.source]?.samples ?? []
        let fresh = Set(cycle.samples.map(\.sensor))
        kept.removeAll { fresh.contains($0.sensor) }
        readings.sources[cycle.source] = .init(sensors: cycle.sensors, samples: kept + cycle.samples)
    }

    /// Wakes loops that observe ``heartbeat``.
    public func beat() { heartbeat &+= 1 }

    /// Keeps the cycle log for these quantities from now on (a loop calls this before it
    /// runs; the newest loop's set wins, so quantities no rule needs any more stop piling up).
    func startLogging(_ quantities: Set<Quantity>) { logged = quantities }

    /// Takes every logged cycle, in commit order, and empties the log.
    func takeLogged() -> [PollCycle] {
        guard !log.isEmpty else { return [] }
        let taken = log.map(\.cycle)
        log.removeAll(keepingCapacity: true)
        return taken
    }

    /// Whether cycles are waiting to be taken.
    var hasLogged: Bool { !log.isEmpty }
}
