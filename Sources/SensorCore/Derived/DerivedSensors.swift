public import SensorRuntime

/// Computes the derived sensors of SPEC §11 from their inputs' read attempts.
///
/// A pure, clock-free state machine, fed in two halves so that one derived sample at `t`
/// sees *every* input sample at `t`, even when they come from different sources:
/// ``record(source:time:tick:readings:)`` buffers what a poll cycle read, and
/// ``drain(through:)`` evaluates the buffered times up to a watermark — a time no later
/// input can be at or before. The daemon drains each cycle at once (its cycles arrive in
/// time order); `simulate` drains up to the oldest time any scenario may still deliver.
///
/// At each buffered time `t`: every input reading at `t` is applied, then every derived
/// sensor with an input read at `t` gets one reading (a value, or a fault with its reason),
/// then the source ticks at `t` tick the derived sensors they stand for (SPEC §6: samples
/// before stale ticks).
public struct DerivedSensors: Sendable {
    /// The configured derived sensors, in configuration order (an index is a position here).
    public let configurations: [DerivedSensorConfiguration]

    /// One thing that happened to one derived sensor.
    public enum Step: Sendable, Hashable {
        /// A reading at `time`: its value, or why it has none.
        case reading(index: Int, time: Timestamp, result: Result<Double, ReadFault>)
        /// A tick of the derived sensor's sources at `time` (stale rules are checked).
        case tick(index: Int, time: Timestamp)
    }

    private struct Attempt: Sendable {
        var time: Timestamp
        var value: Double?
    }

    private enum Pending: Sendable {
        case reading(SensorID, Double?)
        case tick(source: String)
    }

    /// Input id → the derived sensors that read it.
    private let consumers: [SensorID: [Int]]
    /// Each input's latest read attempt.
    private var latest: [SensorID: Attempt] = [:]
    /// The quantities of the inputs discovered so far.
    private var quantities: [SensorID: Quantity] = [:]
    /// Source → the derived sensors whose ticks it gives (those with an input in it).
    private var ticking: [String: [Int]] = [:]
    /// Derived sensors none of whose inputs any source has: every source ticks them, so that
    /// their `stale` rules still fire.
    private var orphans: [Int]
    private var pending: [(time: Timestamp, order: Int, what: Pending)] = []
    private var arrivals = 0
    /// Each derived sensor's one-sensor list (its own source), made again when its info changes.
    private var lists: [SensorList?]
    /// Per source, the positions of derived inputs in its current list (worked out once per
    /// list), so a poll of a thousand sensors with none or few inputs costs no id look-ups.
    private var inputPositions: [String: (list: SensorList, positions: [Int])] = [:]

    /// The derived sensors of `configurations`, none computed yet.
    public init(_ configurations: [DerivedSensorConfiguration]) {
        self.configurations = configurations
        var consumers: [SensorID: [Int]] = [:]
        for (i, c) in configurations.enumerated() {
            let (a, b) = c.formula.inputs
            consumers[a, default: []].append(i)
            if b != a { consumers[b, default: []].append(i) }
        }
        self.consumers = consumers
        self.orphans = Array(configurations.indices)
        self.lists = Array(repeating: nil, count: configurations.count)
        self.sensors = []
        sensors = describe()
    }

    /// Whether there is nothing to compute.
    public var isEmpty: Bool { configurations.isEmpty }

    /// Learns what `source` holds now (a discovery): its inputs' quantities, and which
    /// derived sensors its ticks stand for. A later call for the same source replaces it.
    public mutating func learn(source: String, sensors: [SensorInfo]) {
        var mine: Set<Int> = []
        for info in sensors {
            guard let users = consumers[info.id] else { continue }
            quantities[info.id] = info.quantity
            mine.formUnion(users)
        }
        ticking[source] = mine.sorted()
        let held = Set(ticking.values.joined())
        orphans = configurations.indices.filter { !held.contains($0) }
        self.sensors = describe()
    }

    /// Forgets a source that is gone: its inputs have no readings from now on.
    public mutating func forget(source: String) {
        ticking[source] = nil
        inputPositions[source] = nil
        let held = Set(ticking.values.joined())
        orphans = configurations.indices.filter { !held.contains($0) }
    }

    /// The derived sensors as the model and the rules see them. A `difference` takes its
    /// inputs' quantity once one of them is known (temperature until then); a `dewpoint`
    /// is a temperature. Changes only when ``learn(source:sensors:)`` learns a quantity.
    public private(set) var sensors: [SensorInfo]

    private func describe() -> [SensorInfo] {
        configurations.map { c in
            let quantity: Quantity
            switch c.formula {
            case .dewpoint: quantity = .temperature
            case .difference(let of, let minus): quantity = quantities[of] ?? quantities[minus] ?? .temperature
            }
            return SensorInfo(id: c.id, label: c.label, quantity: quantity)
        }
    }

    /// Buffers what one poll of `source` read: `readings` (input or not; only inputs are
    /// kept) in their order, then, when `tick` is set, the source's tick at `time`.
    public mutating func record(
        source: String, time: Timestamp, tick: Bool, readings: some Sequence<(SensorID, Timestamp, Double?)>
    ) {
        for (id, t, value) in readings where consumers[id] != nil {
            arrivals += 1
            pending.append((t, arrivals, .reading(id, value)))
        }
        if tick {
            arrivals += 1
            pending.append((time, arrivals, .tick(source: source)))
        }
    }

    /// Buffers what one poll cycle read (the slots that hold a reading), then its tick. A
    /// list not seen before for its source is learned first (``learn(source:sensors:)``).
    public mutating func record(_ cycle: PollCycle) {
        let list = cycle.list
        let readings = cycle.readings
        let positions: [Int]
        if let known = inputPositions[list.source], known.list === list {
            positions = known.positions
        } else {
            learn(source: list.source, sensors: list.sensors)
            positions = list.sensors.indices.filter { consumers[list.sensors[$0].id] != nil }
            inputPositions[list.source] = (list, positions)
        }
        record(
            source: list.source, time: cycle.time, tick: cycle.tick,
            readings: positions.lazy.filter { readings.wasRead($0) }.map {
                (list.sensors[$0].id, readings.time, readings.value(at: $0))
            })
    }

    /// Evaluates everything buffered at or before `watermark`, in time order (at one time:
    /// readings, then derived values, then ticks), and returns the steps.
    public mutating func drain(through watermark: Timestamp) -> [Step] {
        guard !pending.isEmpty else { return [] }
        // Buffers are short and nearly sorted; arrival order breaks ties.
        pending.sort { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }
        let ready = pending.prefix { $0.time <= watermark }
        guard !ready.isEmpty else { return [] }
        var steps: [Step] = []
        var i = ready.startIndex
        while i < ready.endIndex {
            let t = ready[i].time
            var touched: Set<Int> = []
            var ticked: Set<Int> = []
            while i < ready.endIndex, ready[i].time == t {
                switch ready[i].what {
                case .reading(let id, let value):
                    latest[id] = Attempt(time: t, value: value)
                    touched.formUnion(consumers[id] ?? [])
                case .tick(let source):
                    ticked.formUnion(ticking[source] ?? [])
                    ticked.formUnion(orphans)
                }
                i += 1
            }
            for d in touched.sorted() {
                steps.append(.reading(index: d, time: t, result: value(of: d, at: t)))
            }
            for d in ticked.sorted() { steps.append(.tick(index: d, time: t)) }
        }
        pending.removeFirst(ready.count)
        return steps
    }

    /// The poll cycles that carry `steps` to the model: one per derived sensor and step, so
    /// each derived sensor is a source of its own (its ticks are its inputs' sources').
    public mutating func cycles(of steps: [Step]) -> [PollCycle] {
        steps.map { step in
            switch step {
            case .reading(let d, let t, let result):
                var readings = SensorValues(time: t, capacity: 1)
                switch result {
                case .success(let v): readings.append(v)
                case .failure(let f): readings.appendFault(f)
                }
                return PollCycle(list: list(of: d), readings: readings, tick: false)
            case .tick(let d, let t):
                return PollCycle(list: list(of: d), readings: SensorValues(time: t, unread: 1), tick: true)
            }
        }
    }

    /// Derived sensor `d`'s list: the same object while its info stays the same.
    private mutating func list(of d: Int) -> SensorList {
        if let known = lists[d], known.sensors[0] == sensors[d] { return known }
        let made = SensorList(source: "derived#\(d)", sensors: [sensors[d]])
        lists[d] = made
        return made
    }

    /// Derived sensor `d`'s reading at `t` from its inputs' latest read attempts.
    func value(of d: Int, at t: Timestamp) -> Result<Double, ReadFault> {
        let c = configurations[d]
        let (a, b) = c.formula.inputs
        let first: Double
        let second: Double
        switch (input(a, at: t, maxAge: c.maxAge), input(b, at: t, maxAge: c.maxAge)) {
        case (.failure(let f), _), (_, .failure(let f)): return .failure(f)
        case (.success(let x), .success(let y)): (first, second) = (x, y)
        }
        switch c.formula {
        case .dewpoint:
            if let q = quantities[a], q != .temperature {
                return .failure(.other("dewpoint input \(a) is a \(q), not a temperature"))
            }
            if let q = quantities[b], q != .humidity {
                return .failure(.other("dewpoint input \(b) is a \(q), not a humidity"))
            }
            return DerivedFormula.dewPoint(temperature: first, humidity: second)
        case .difference:
            if let qa = quantities[a], let qb = quantities[b], qa != qb {
                return .failure(.other("difference inputs are of different quantities (\(a) \(qa), \(b) \(qb))"))
            }
            return .success(first - second)
        }
    }

    private func input(_ id: SensorID, at t: Timestamp, maxAge: Duration) -> Result<Double, ReadFault> {
        guard let attempt = latest[id] else { return .failure(.other("no reading of \(id) yet")) }
        guard let value = attempt.value else { return .failure(.other("input \(id) failed")) }
        let age = t - attempt.time
        guard age <= maxAge else {
            return .failure(.other("input \(id) is \(Timestamp(nanoseconds: age.nanoseconds).seconds) s old"))
        }
        return .success(value)
    }
}
