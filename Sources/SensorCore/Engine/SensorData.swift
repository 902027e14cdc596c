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
    /// Per source and quantity, the discovery whose sensors are already learnt.
    @ObservationIgnored private var learnt: [String: UInt64] = [:]

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
        guard let first = cycle.sensors.first?.quantity else { return }
        if cycle.sensors.allSatisfy({ $0.quantity == first }) {
            apply(cycle, to: first)
            return
        }
        // A source with several quantities (an IIO device, a scenario): split the cycle.
        var quantityOf: [SensorID: Quantity] = [:]
        for info in cycle.sensors { quantityOf[info.id] = info.quantity }
        for quantity in Quantity.allCases {
            let sensors = cycle.sensors.filter { $0.quantity == quantity }
            guard !sensors.isEmpty else { continue }
            var part = cycle
            part.sensors = sensors
            part.samples = cycle.samples.filter { quantityOf[$0.sensor] == quantity }
            apply(part, to: quantity)
        }
    }

    private func apply(_ cycle: PollCycle, to quantity: Quantity) {
        let key = cycle.source + "/" + quantity.rawValue
        let known = cycle.discovery != 0 && learnt[key] == cycle.discovery
        switch quantity {
        case .temperature: Self.merge(cycle, into: &temperature, learn: !known)
        case .humidity: Self.merge(cycle, into: &humidity, learn: !known)
        case .pressure: Self.merge(cycle, into: &pressure, learn: !known)
        }
        if !known, cycle.discovery != 0 { learnt[key] = cycle.discovery }
        if logged.contains(quantity) {
            sequence += 1
            log.append((sequence, cycle))
        }
    }

    private static func merge(_ cycle: PollCycle, into readings: inout QuantityReadings, learn: Bool) {
        readings.revision &+= 1
        if learn {
            for info in cycle.sensors where readings.sensors[info.id] == nil {
                readings.sensors[info.id] = info
            }
        }
        for sample in cycle.samples {
            readings.latest[sample.sensor] = sample
        }
    }

    /// Wakes loops that observe ``heartbeat``.
    public func beat() { heartbeat &+= 1 }

    /// Starts keeping the cycle log for these quantities (a loop calls this before it runs).
    func startLogging(_ quantities: Set<Quantity>) { logged.formUnion(quantities) }

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
