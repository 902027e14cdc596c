/// Evaluates every rule on every sample of the sensors it selects (SPEC §5).
///
/// A pure state machine over all (rule, sensor) alerts: it is fed poll cycles, returns
/// events, and does no I/O. Sensors are learnt the first time a cycle mentions them; the
/// rules that select a sensor are found once, then each sample costs one look-up plus one
/// `AlertMachine` step per selecting rule.
///
/// Storage is flat: one slot per (sensor, selecting rule) in two parallel arrays, a sensor's
/// slots side by side. With a thousand sensors polled every 100 ms the caches are cold at
/// each poll, so contiguous slots (rather than two small arrays per sensor) are what keeps
/// a sample cheap.
public struct RuleEngine: Sendable {
    /// The rules, in configuration order.
    public private(set) var rules: [Rule]

    /// Rules behind a reference, so evaluating one does not copy its strings and globs.
    private final class RuleRef: Sendable {
        let rule: Rule
        let isStale: Bool
        init(_ rule: Rule) {
            self.rule = rule
            self.isStale = rule.condition.kind == .stale
        }
    }

    /// Where a sensor's slots are.
    private struct Span: Sendable {
        var first: Int
        var count: Int
    }

    private var refs: [RuleRef]
    private var entryIndex: [SensorID: Int] = [:]
    private var infos: [SensorInfo] = []
    private var spans: [Span] = []
    /// Per slot: the rule's index, and the alert's state.
    private var slotRule: [Int] = []
    private var slotState: [AlertState] = []
    private var hasStaleRules: Bool
    /// Alerts that were firing when the daemon last stopped, applied when their sensor appears.
    private var restoredFiring: Set<AlertKey> = []
    /// Per sensor list (source and first id: the parts of a cycle split by quantity are
    /// different lists): the discovery it was seen with and each listed sensor's entry (-1
    /// if none), so that a sample at the same position as its sensor needs no hashing.
    private var listEntries: [String: (discovery: UInt64, entries: [Int])] = [:]

    /// An engine with no sensors known yet.
    public init(rules: [Rule]) {
        self.rules = rules
        self.refs = rules.map(RuleRef.init)
        self.hasStaleRules = rules.contains { $0.condition.kind == .stale }
    }

    /// The sensors seen so far.
    public var sensors: [SensorInfo] { infos }

    /// Evaluates one poll cycle: its samples in order, then its stale tick.
    public mutating func process(_ cycle: PollCycle, into events: inout [AlertEvent]) {
        if let values = cycle.values {
            processAligned(cycle, values, into: &events)
            return
        }
        let sensors = cycle.sensors
        let samples = cycle.samples
        var cached: [Int] = []
        var listKey = ""
        if cycle.discovery != 0, let first = sensors.first {
            listKey = cycle.source + "\u{0}" + first.id.rawValue
            if let known = listEntries[listKey], known.discovery == cycle.discovery,
                known.entries.count == sensors.count
            {
                cached = known.entries
            }
        }
        // Indexing, not iterating: a copied Sample retains its id string, and with a
        // thousand sensors polled every 100 ms those strings are never in cache. The cached
        // position is only a guess, checked against the entry's own id (the same string
        // storage as the sample's, so the check is a pointer comparison).
        for i in samples.indices {
            let e: Int
            if i < cached.count, cached[i] >= 0, infos[cached[i]].id == samples[i].sensor {
                e = cached[i]
            } else if let found = entry(for: samples[i].sensor, in: cycle, firstSeen: samples[i].time) {
                e = found
            } else {
                continue
            }
            step(e, time: samples[i].time, value: samples[i].value, into: &events)
        }
        if cached.isEmpty, !listKey.isEmpty {
            cached = sensors.map { entry(for: $0.id, in: cycle, firstSeen: cycle.time) ?? -1 }
            listEntries[listKey] = (cycle.discovery, cached)
        }
        guard cycle.tick, hasStaleRules else { return }
        if !listKey.isEmpty {
            for e in cached where e >= 0 { step(e, time: cycle.time, value: nil, into: &events) }
            return
        }
        for info in sensors {
            guard let e = entry(for: info.id, in: cycle, firstSeen: cycle.time) else { continue }
            step(e, time: cycle.time, value: nil, into: &events)
        }
    }

    /// A cycle of one value per listed sensor: each position's entry is known from the
    /// list (worked out once per discovery), so a sample costs no id at all.
    private mutating func processAligned(_ cycle: PollCycle, _ values: SensorValues, into events: inout [AlertEvent]) {
        let sensors = cycle.sensors
        guard let first = sensors.first else { return }
        var entries: [Int] = []
        var listKey = ""
        if cycle.discovery != 0 {
            listKey = cycle.source + "\u{0}" + first.id.rawValue
            if let known = listEntries[listKey], known.discovery == cycle.discovery, known.entries.count == sensors.count {
                entries = known.entries
            }
        }
        if entries.isEmpty {
            entries = sensors.map { entry(for: $0.id, in: cycle, firstSeen: cycle.time) ?? -1 }
            if !listKey.isEmpty { listEntries[listKey] = (cycle.discovery, entries) }
        }
        let time = cycle.time
        values.values.withUnsafeBufferPointer { read in
            for i in read.indices where entries[i] >= 0 {
                let v = read[i]
                step(entries[i], time: time, value: v.isNaN ? nil : v, into: &events)
            }
        }
        guard cycle.tick, hasStaleRules else { return }
        for e in entries where e >= 0 { step(e, time: time, value: nil, into: &events) }
    }

    /// Learns a sensor (if new) so that staleness counts from `time`.
    public mutating func register(_ info: SensorInfo, at time: Timestamp) {
        if entryIndex[info.id] == nil { add(info, at: time) }
    }

    private mutating func entry(for id: SensorID, in cycle: PollCycle, firstSeen: Timestamp) -> Int? {
        if let e = entryIndex[id] { return e }
        guard let info = cycle.sensors.first(where: { $0.id == id }) else { return nil }
        return add(info, at: min(firstSeen, cycle.time))
    }

    @discardableResult
    private mutating func add(_ info: SensorInfo, at time: Timestamp) -> Int {
        let first = slotRule.count
        for (i, rule) in rules.enumerated() where rule.selector.matches(info) {
            var state = AlertState(condition: rule.condition, start: time)
            if restoredFiring.remove(AlertKey(rule: rule.name, sensor: info.id)) != nil {
                state.markRestoredFiring(at: time)
            }
            slotRule.append(i)
            slotState.append(state)
        }
        infos.append(info)
        spans.append(Span(first: first, count: slotRule.count - first))
        entryIndex[info.id] = infos.count - 1
        return infos.count - 1
    }

    /// `value` nil is a failed read or a tick: only `stale` rules look at those.
    private mutating func step(_ e: Int, time: Timestamp, value: Double?, into events: inout [AlertEvent]) {
        let span = spans[e]
        guard span.count > 0 else { return }
        for slot in span.first..<(span.first + span.count) {
            let r = slotRule[slot]
            // Borrowed, not retained: two atomic reference-count updates per sample and rule
            // were a measurable share of a sample's cost.
            Unmanaged.passUnretained(refs[r])._withUnsafeGuaranteedRef { ref in
                if value == nil, !ref.isStale { return }
                AlertMachine.step(
                    &slotState[slot], time: time, value: value, rule: ref.rule, index: r,
                    sensor: infos[e], into: &events)
            }
        }
    }

    // MARK: - Kept state and reload

    /// Every alert that is firing now, with the time it fired.
    public var firing: [AlertKey: Timestamp] {
        var out: [AlertKey: Timestamp] = [:]
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) {
                if case .firing(let since, _, _) = slotState[slot].phase {
                    out[AlertKey(rule: rules[slotRule[slot]].name, sensor: infos[e].id)] = since
                }
            }
        }
        return out
    }

    /// Calls `body` with every (rule, sensor) alert that exists — as indices into ``rules``
    /// and ``sensors`` — and whether it fires now (for the metrics file; allocates nothing).
    public func forEachAlert(_ body: (_ rule: Int, _ sensor: Int, _ firing: Bool) -> Void) {
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) {
                body(slotRule[slot], e, slotState[slot].isFiring)
            }
        }
    }

    /// Marks alerts as already firing (from kept state), so that a restart logs no second
    /// `firing` for them and logs `resolved` at their first false sample. Applies to sensors
    /// seen later too.
    public mutating func restoreFiring(_ keys: some Sequence<AlertKey>) {
        restoredFiring.formUnion(keys)
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) {
                let key = AlertKey(rule: rules[slotRule[slot]].name, sensor: infos[e].id)
                guard restoredFiring.remove(key) != nil, !slotState[slot].isFiring else { continue }
                slotState[slot].markRestoredFiring(at: slotState[slot].lastSuccess)
            }
        }
    }

    /// Switches to new rules, keeping the state of every alert whose rule (by name) still
    /// exists and still selects the sensor. An unchanged condition keeps its window too.
    public mutating func replaceRules(_ newRules: [Rule], at time: Timestamp) {
        let old = rules
        let (oldSpans, oldRule, oldState) = (spans, slotRule, slotState)
        rules = newRules
        refs = newRules.map(RuleRef.init)
        hasStaleRules = newRules.contains { $0.condition.kind == .stale }
        slotRule = []
        slotState = []
        for e in infos.indices {
            let first = slotRule.count
            let oldSlots = oldSpans[e].first..<(oldSpans[e].first + oldSpans[e].count)
            for (i, rule) in newRules.enumerated() where rule.selector.matches(infos[e]) {
                slotRule.append(i)
                guard let k = oldSlots.first(where: { old[oldRule[$0]].name == rule.name }) else {
                    slotState.append(AlertState(condition: rule.condition, start: time))
                    continue
                }
                var state = oldState[k]
                if old[oldRule[k]].condition != rule.condition {
                    let fresh = AlertState(condition: rule.condition, start: time)
                    state.window = fresh.window
                    state.trend = fresh.trend
                }
                slotState.append(state)
            }
            spans[e] = Span(first: first, count: slotRule.count - first)
        }
    }
}
