public import SensorRuntime

/// Evaluates every rule on every sample of the sensors it selects (SPEC §5).
///
/// A pure state machine over all (rule, sensor) alerts: it is fed poll cycles, returns
/// events, and does no I/O. Sensors are learnt the first time a cycle's list names them; the
/// rules that select a sensor are found once, and each list's positions are mapped to
/// sensors once per discovery, so each reading costs one `AlertMachine` step per selecting
/// rule and nothing else.
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
        /// What a step reads of it at every sample.
        let parameters: AlertMachine.Parameters
        init(_ rule: Rule) {
            self.rule = rule
            parameters = AlertMachine.Parameters(rule)
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
    /// Per slot: the rule's index, the rule as it applies to the slot's sensor (a limit
    /// rule's own numbers, SPEC §16; nil: it names a limit the sensor lacks, and does not
    /// select it), and the alert's state.
    private var slotRule: [Int] = []
    private var slotRef: [RuleRef?] = []
    /// `slotRef` unretained, for the per-sample path: loading a reference from `slotRef`
    /// retains and releases it (bench/README.md, "Instructions behind the code's shortcuts").
    /// Written only with `slotRef`, which keeps the objects alive.
    private var slotBorrowed: [Unmanaged<RuleRef>?] = []
    /// Whether the slot's rule is a `stale` rule, the only kind a tick or a failed read
    /// evaluates: the tick of every cycle skips the others without loading their rule.
    private var slotStale: [Bool] = []
    private var slotState: [AlertState] = []
    private var hasStaleRules: Bool
    /// Whether a tick may skip the sensors read at its own instant: true when every `stale`
    /// rule's duration and `repeat` are positive (the decoder's rule), for then evaluating
    /// one again at the time it just evaluated changes nothing (its sample left
    /// `time - lastSuccess` at 0, or its failed read was the very same evaluation).
    private var ticksSkipRead: Bool
    /// The sensors (entries) whose latest reading was `asleep` (SPEC §20): a tick restarts
    /// their `stale` clock instead of evaluating it, so it cannot run out while they sleep.
    private var sleeping: Set<Int> = []
    /// Alerts that were firing when the daemon last stopped, applied when their sensor appears.
    private var restoredFiring: Set<AlertKey> = []
    /// Per running source: its current list and each listed sensor's entry (every listed
    /// sensor gets one), worked out once per discovery, so a reading costs no id at all. Found
    /// by the list's identity: a few sources, so a scan of pointers, not a hash of the
    /// source's key per cycle.
    private var listEntries: [(list: SensorList, entries: [Int])] = []
    /// Sensors that went (SPEC §20) and no list has named since.
    private var absent: Set<Int> = []

    /// An engine with no sensors known yet.
    public init(rules: [Rule]) {
        self.rules = rules
        self.refs = rules.map(RuleRef.init)
        self.hasStaleRules = rules.contains { $0.condition.kind == .stale }
        self.ticksSkipRead = Self.ticksSkipRead(rules)
    }

    private static func ticksSkipRead(_ rules: [Rule]) -> Bool {
        rules.allSatisfy { rule in
            guard case .stale(let limit) = rule.condition else { return true }
            return limit > .zero && (rule.repeatEvery.map { $0 > .zero } ?? true)
        }
    }

    /// The sensors seen so far.
    public var sensors: [SensorInfo] { infos }

    /// Evaluates one poll cycle: its readings in list order, then its stale tick.
    public mutating func process(_ cycle: PollCycle, into events: inout [AlertEvent]) {
        let list = cycle.list
        let time = cycle.time
        let entries: [Int]
        if let k = listEntries.firstIndex(where: { $0.list === list }) {
            entries = listEntries[k].entries
        } else {
            entries = list.sensors.map { info in
                guard let e = entryIndex[info.id] else { return add(info, at: min(list.discovered, time)) }
                if infos[e].limits != info.limits { relimit(e, info) }
                if absent.remove(e) != nil { restart(e, at: min(list.discovered, time)) }
                return e
            }
            // Sensors the source's last list named and this one does not went (SPEC §20).
            if let k = listEntries.firstIndex(where: { $0.list.source == list.source }) {
                let now = Set(entries)
                for e in listEntries[k].entries where !now.contains(e) { gone(e, at: time, into: &events) }
                listEntries[k] = (list, entries)
            } else {
                listEntries.append((list, entries))
            }
        }
        guard !entries.isEmpty else { return }
        let readings = cycle.readings
        let faults = readings.faults
        let alarms = readings.alarms
        readings.values.withUnsafeBufferPointer { read in
            for i in read.indices {
                let v = read[i]
                if !v.isNaN {
                    if !sleeping.isEmpty { sleeping.remove(entries[i]) }
                    step(entries[i], time: time, value: v, alarms: alarms.isEmpty ? [] : alarms[i] ?? [], into: &events)
                } else if !faults.isEmpty, faults[i] != nil {
                    if !sleeping.isEmpty { sleeping.remove(entries[i]) }
                    // A failed read: only `stale` looks at it (the sensor counts as not updated).
                    step(entries[i], time: time, value: nil, into: &events)
                } else if readings.isAsleep(i) {
                    // Asleep: nothing to say, and no reading is missed (SPEC §20).
                    sleeping.insert(entries[i])
                    restartStaleClocks(entries[i], at: time)
                }
            }
        }
        guard cycle.tick, hasStaleRules else { return }
        for (i, e) in entries.enumerated() {
            if !sleeping.isEmpty, sleeping.contains(e) {
                restartStaleClocks(e, at: time)
            } else if !ticksSkipRead || !readings.wasRead(i) {
                step(e, time: time, value: nil, into: &events)
            }
        }
    }

    /// A sleeping sensor's `stale` alerts count from now: its state is left as it was, and
    /// staleness starts again when it wakes.
    private mutating func restartStaleClocks(_ e: Int, at time: Timestamp) {
        guard hasStaleRules else { return }
        let span = spans[e]
        for slot in span.first..<(span.first + span.count) where slotStale[slot] && slotRef[slot] != nil {
            slotState[slot].lastSuccess = time
        }
    }

    /// Forgets the per-list positions of a source that stopped (its list is not coming back).
    public mutating func forget(source: String) { listEntries.removeAll { $0.list.source == source } }

    /// Sensor `e` went: its firing alerts resolve with the reason, and until a list names it
    /// again it has no reads and no ticks (no `stale` firing).
    private mutating func gone(_ e: Int, at time: Timestamp, into events: inout [AlertEvent]) {
        absent.insert(e)
        let span = spans[e]
        for slot in span.first..<(span.first + span.count) {
            guard let ref = slotRef[slot] else { continue }
            AlertMachine.gone(
                &slotState[slot], time: time, rule: ref.rule, index: slotRule[slot], sensor: infos[e], into: &events)
        }
    }

    /// Sensor `e` came back: its alerts count from `time`, as a new sensor's do.
    private mutating func restart(_ e: Int, at time: Timestamp) {
        let span = spans[e]
        for slot in span.first..<(span.first + span.count) {
            slotState[slot] = AlertState(condition: rules[slotRule[slot]].condition, start: time)
        }
    }

    @discardableResult
    private mutating func add(_ info: SensorInfo, at time: Timestamp) -> Int {
        let first = slotRule.count
        for (i, rule) in rules.enumerated() where rule.selector.matches(info) {
            let ref = self.ref(i, for: info)
            var state = AlertState(condition: rule.condition, start: time)
            if ref != nil, restoredFiring.remove(AlertKey(rule: rule.name, sensor: info.id)) != nil {
                state.markRestoredFiring(at: time)
            }
            appendSlot(rule: i, ref: ref, state: state)
        }
        infos.append(info)
        spans.append(Span(first: first, count: slotRule.count - first))
        entryIndex[info.id] = infos.count - 1
        return infos.count - 1
    }

    private mutating func appendSlot(rule: Int, ref: RuleRef?, state: AlertState) {
        slotRule.append(rule)
        slotRef.append(ref)
        slotBorrowed.append(ref.map(Unmanaged.passUnretained))
        slotStale.append(rules[rule].condition.kind == .stale)
        slotState.append(state)
    }

    /// Rule `i` as it applies to `info`: shared unless it names a limit.
    private func ref(_ i: Int, for info: SensorInfo) -> RuleRef? {
        guard rules[i].limit != nil else { return refs[i] }
        return rules[i].resolved(for: info).map(RuleRef.init)
    }

    /// A known sensor's limits changed at a rediscovery: they apply from now on, and an
    /// alert in progress keeps its state (SPEC §16).
    private mutating func relimit(_ e: Int, _ info: SensorInfo) {
        infos[e].limits = info.limits
        let span = spans[e]
        for slot in span.first..<(span.first + span.count) where rules[slotRule[slot]].limit != nil {
            let ref = self.ref(slotRule[slot], for: infos[e])
            slotRef[slot] = ref
            slotBorrowed[slot] = ref.map(Unmanaged.passUnretained)
        }
    }

    /// `value` nil is a failed read or a tick: only `stale` rules look at those.
    private mutating func step(
        _ e: Int, time: Timestamp, value: Double?, alarms: HardwareAlarms = [], into events: inout [AlertEvent]
    ) {
        let span = spans[e]
        guard span.count > 0 else { return }
        // The states in one buffer: one uniqueness check a sample, not one a rule.
        slotState.withUnsafeMutableBufferPointer { states in
            for slot in span.first..<(span.first + span.count) {
                if value == nil, !slotStale[slot] { continue }
                let r = slotRule[slot]
                // Borrowed, not retained: two atomic reference-count updates per sample and rule
                // were a measurable share of a sample's cost.
                guard let resolved = slotBorrowed[slot] else { continue }
                resolved._withUnsafeGuaranteedRef { ref in
                    AlertMachine.step(
                        &states[slot], time: time, value: value, alarms: alarms, parameters: ref.parameters,
                        rule: ref.rule, index: r,
                        sensor: infos[e], into: &events)
                }
            }
        }
    }

    // MARK: - Kept state and reload

    /// Every alert that is firing now, with the time it fired.
    public var firing: [AlertKey: Timestamp] {
        var out: [AlertKey: Timestamp] = [:]
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) where slotRef[slot] != nil {
                if case .firing(let since, _, _) = slotState[slot].phase {
                    out[AlertKey(rule: rules[slotRule[slot]].name, sensor: infos[e].id)] = since
                }
            }
        }
        return out
    }

    /// Calls `body` with every (rule, sensor) alert that exists — as indices into ``rules``
    /// and ``sensors`` — and whether it fires now (for the metrics file; allocates nothing).
    /// A sensor that went (SPEC §20) has none until it comes back.
    public func forEachAlert(_ body: (_ rule: Int, _ sensor: Int, _ firing: Bool) -> Void) {
        for (e, span) in spans.enumerated() where absent.isEmpty || !absent.contains(e) {
            for slot in span.first..<(span.first + span.count) where slotRef[slot] != nil {
                body(slotRule[slot], e, slotState[slot].isFiring)
            }
        }
    }

    /// Calls `body` with every alert that is pending or firing now — as indices into
    /// ``rules`` and ``sensors`` — its phase and the threshold the rule uses for that sensor
    /// (a limit rule's resolved one, SPEC §16), for the status file.
    public func forEachActiveAlert(
        _ body: (_ rule: Int, _ sensor: Int, _ phase: AlertState.Phase, _ threshold: AlertThreshold) -> Void
    ) {
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) where slotState[slot].phase != .ok {
                guard let ref = slotRef[slot] else { continue }
                body(slotRule[slot], e, slotState[slot].phase, ref.rule.threshold(seen: slotState[slot]))
            }
        }
    }

    /// Marks alerts as already firing (from kept state), so that a restart logs no second
    /// `firing` for them and logs `resolved` at their first false sample. Applies to sensors
    /// seen later too.
    public mutating func restoreFiring(_ keys: some Sequence<AlertKey>) {
        restoredFiring.formUnion(keys)
        for (e, span) in spans.enumerated() {
            for slot in span.first..<(span.first + span.count) where slotRef[slot] != nil {
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
        ticksSkipRead = Self.ticksSkipRead(newRules)
        slotRule = []
        slotRef = []
        slotBorrowed = []
        slotStale = []
        slotState = []
        for e in infos.indices {
            let first = slotRule.count
            let oldSlots = oldSpans[e].first..<(oldSpans[e].first + oldSpans[e].count)
            for (i, rule) in newRules.enumerated() where rule.selector.matches(infos[e]) {
                let ref = self.ref(i, for: infos[e])
                guard let k = oldSlots.first(where: { old[oldRule[$0]].name == rule.name }) else {
                    appendSlot(rule: i, ref: ref, state: AlertState(condition: rule.condition, start: time))
                    continue
                }
                var state = oldState[k]
                if old[oldRule[k]].condition != rule.condition {
                    let fresh = AlertState(condition: rule.condition, start: time)
                    state.window = fresh.window
                    state.trend = fresh.trend
                }
                appendSlot(rule: i, ref: ref, state: state)
            }
            spans[e] = Span(first: first, count: slotRule.count - first)
        }
    }
}
