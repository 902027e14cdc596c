/// Evaluates every rule on every sample of the sensors it selects (SPEC §5).
///
/// A pure state machine over all (rule, sensor) alerts: it is fed poll cycles, returns
/// events, and does no I/O. Sensors are learnt the first time a cycle mentions them; the
/// rules that select a sensor are found once, then each sample costs one lookup plus one
/// `AlertMachine` step per selecting rule.
public struct RuleEngine: Sendable {
    /// The rules, in configuration order.
    public private(set) var rules: [Rule]

    private struct Entry: Sendable {
        var info: SensorInfo
        var ruleIndexes: [Int]
        var states: [AlertState]
    }

    /// Rules behind a reference, so evaluating one does not copy its strings and globs.
    private final class RuleRef: Sendable {
        let rule: Rule
        let isStale: Bool
        init(_ rule: Rule) {
            self.rule = rule
            self.isStale = rule.condition.kind == .stale
        }
    }

    private var refs: [RuleRef]
    private var entryIndex: [SensorID: Int] = [:]
    private var entries: [Entry] = []
    /// `entries[e].info`, apart, so a step can read it while it mutates the entry's states.
    private var infos: [SensorInfo] = []
    private var hasStaleRules: Bool
    /// Per source: the discovery its sensor list was seen with, and each listed sensor's
    /// entry, so that a sample at the same position as its sensor needs no hashing.
    private var sourceEntries: [String: (discovery: UInt64, entries: [Int])] = [:]
    /// Alerts that were firing when the daemon last stopped, applied when their sensor appears.
    private var restoredFiring: Set<AlertKey> = []

    /// An engine with no sensors known yet.
    public init(rules: [Rule]) {
        self.rules = rules
        self.refs = rules.map(RuleRef.init)
        self.hasStaleRules = rules.contains { $0.condition.kind == .stale }
    }

    /// The sensors seen so far.
    public var sensors: [SensorInfo] { entries.map(\.info) }

    /// Evaluates one poll cycle: its samples in order, then its stale tick.
    public mutating func process(_ cycle: PollCycle, into events: inout [AlertEvent]) {
        var cached: [Int] = []
        if cycle.discovery != 0, let known = sourceEntries[cycle.source], known.discovery == cycle.discovery {
            cached = known.entries
        }
        let sensors = cycle.sensors
        let samples = cycle.samples
        // Indexing, not iterating: a copied Sample retains its id string, and with a
        // thousand sensors polled every 100 ms those strings are never in cache.
        for i in samples.indices {
            let e: Int
            if i < cached.count, samples[i].sensor == sensors[i].id {
                e = cached[i]
            } else if let found = entry(for: samples[i].sensor, in: cycle, firstSeen: samples[i].time) {
                e = found
            } else {
                continue
            }
            step(e, time: samples[i].time, value: samples[i].value, tick: false, into: &events)
        }
        if cached.isEmpty, cycle.discovery != 0 {
            cached = sensors.compactMap { entry(for: $0.id, in: cycle, firstSeen: cycle.time) }
            sourceEntries[cycle.source] = (cycle.discovery, cached)
        }
        guard cycle.tick, hasStaleRules else { return }
        if cycle.discovery != 0 {
            for e in cached { step(e, time: cycle.time, value: nil, tick: true, into: &events) }
            return
        }
        for info in sensors {
            guard let e = entry(for: info.id, in: cycle, firstSeen: cycle.time) else { continue }
            step(e, time: cycle.time, value: nil, tick: true, into: &events)
        }
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
        var ruleIndexes: [Int] = []
        var states: [AlertState] = []
        for (i, rule) in rules.enumerated() where rule.selector.matches(info) {
            ruleIndexes.append(i)
            var state = AlertState(condition: rule.condition, start: time)
            if restoredFiring.remove(AlertKey(rule: rule.name, sensor: info.id)) != nil {
                state.phase = .firing(since: time, clearing: nil, lastSent: time)
                state.conditionTrue = true
            }
            states.append(state)
        }
        entries.append(Entry(info: info, ruleIndexes: ruleIndexes, states: states))
        infos.append(info)
        entryIndex[info.id] = entries.count - 1
        return entries.count - 1
    }

    private mutating func step(_ e: Int, time: Timestamp, value: Double?, tick: Bool, into events: inout [AlertEvent]) {
        let count = entries[e].ruleIndexes.count
        guard count > 0 else { return }
        for k in 0..<count {
            let r = entries[e].ruleIndexes[k]
            let ref = refs[r]
            // Failed reads and ticks only matter to `stale`; skip the call for the rest.
            if value == nil, !ref.isStale { continue }
            AlertMachine.step(
                &entries[e].states[k], time: time, value: value, rule: ref.rule, index: r,
                sensor: infos[e], into: &events)
        }
    }

    // MARK: - Kept state and reload

    /// Every alert that is firing now, with the time it fired.
    public var firing: [AlertKey: Timestamp] {
        var out: [AlertKey: Timestamp] = [:]
        for entry in entries {
            for (k, r) in entry.ruleIndexes.enumerated() {
                if case .firing(let since, _, _) = entry.states[k].phase {
                    out[AlertKey(rule: rules[r].name, sensor: entry.info.id)] = since
                }
            }
        }
        return out
    }

    /// Marks alerts as already firing (from kept state), so that a restart logs no second
    /// `firing` for them and logs `resolved` at their first false sample. Applies to sensors
    /// seen later too.
    public mutating func restoreFiring(_ keys: some Sequence<AlertKey>) {
        restoredFiring.formUnion(keys)
        for e in entries.indices {
            for (k, r) in entries[e].ruleIndexes.enumerated() {
                let key = AlertKey(rule: rules[r].name, sensor: entries[e].info.id)
                guard restoredFiring.remove(key) != nil, !entries[e].states[k].isFiring else { continue }
                let start = entries[e].states[k].lastSuccess
                entries[e].states[k].phase = .firing(since: start, clearing: nil, lastSent: start)
                entries[e].states[k].conditionTrue = true
            }
        }
    }

    /// Switches to new rules, keeping the state of every alert whose rule (by name) still
    /// exists and still selects the sensor. An unchanged condition keeps its window too.
    public mutating func replaceRules(_ newRules: [Rule], at time: Timestamp) {
        let old = rules
        let oldEntries = entries
        rules = newRules
        refs = newRules.map(RuleRef.init)
        hasStaleRules = newRules.contains { $0.condition.kind == .stale }
        for e in entries.indices {
            let info = oldEntries[e].info
            var ruleIndexes: [Int] = []
            var states: [AlertState] = []
            for (i, rule) in newRules.enumerated() where rule.selector.matches(info) {
                ruleIndexes.append(i)
                let kept = oldEntries[e].ruleIndexes.firstIndex { old[$0].name == rule.name }
                guard let k = kept else {
                    states.append(AlertState(condition: rule.condition, start: time))
                    continue
                }
                var state = oldEntries[e].states[k]
                if old[oldEntries[e].ruleIndexes[k]].condition != rule.condition {
                    state.window = AlertState(condition: rule.condition, start: time).window
                }
                states.append(state)
            }
            entries[e].ruleIndexes = ruleIndexes
            entries[e].states = states
        }
    }
}
