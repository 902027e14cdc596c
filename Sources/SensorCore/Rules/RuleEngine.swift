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
    private var hasStaleRules: Bool
    /// Per source: the discovery the tick list was built for, and its entries.
    private var tickEntries: [String: (discovery: UInt64, entries: [Int])] = [:]
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
        for sample in cycle.samples {
            guard let e = entry(for: sample.sensor, in: cycle, firstSeen: sample.time) else { continue }
            step(e, .sample(sample), into: &events)
        }
        guard cycle.tick, hasStaleRules else { return }
        if cycle.discovery != 0, let cached = tickEntries[cycle.source], cached.discovery == cycle.discovery {
            for e in cached.entries { step(e, .tick(cycle.time), into: &events) }
            return
        }
        var list: [Int] = []
        for info in cycle.sensors {
            guard let e = entry(for: info.id, in: cycle, firstSeen: cycle.time) else { continue }
            list.append(e)
            step(e, .tick(cycle.time), into: &events)
        }
        if cycle.discovery != 0 { tickEntries[cycle.source] = (cycle.discovery, list) }
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
        entryIndex[info.id] = entries.count - 1
        return entries.count - 1
    }

    private mutating func step(_ e: Int, _ input: AlertInput, into events: inout [AlertEvent]) {
        let count = entries[e].ruleIndexes.count
        guard count > 0 else { return }
        let info = entries[e].info
        let isTick: Bool
        if case .tick = input { isTick = true } else { isTick = false }
        for k in 0..<count {
            let r = entries[e].ruleIndexes[k]
            let ref = refs[r]
            if isTick, !ref.isStale { continue }
            AlertMachine.step(&entries[e].states[k], input, rule: ref.rule, index: r, sensor: info, into: &events)
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
        tickEntries = [:]
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
