/// Runs the configured rules over simulated sources in virtual time (SPEC §9, `simulate`).
///
/// The same path as the daemon: readers commit poll cycles to ``SensorData``, a
/// ``TrackingLoop`` hands them to the ``RuleEngine``. Only the clock differs: instead of
/// sleeping until each tick, virtual time jumps to the next tick at once.
@DaemonActor
public enum Simulator {
    /// Plays each scenario once and returns every event in SPEC §6 order (time, then rule
    /// order, then sensor id).
    ///
    /// - Parameters:
    ///   - scenarios: the simulated sources' scenarios.
    ///   - rules: the rules, in configuration order.
    ///   - derived: derived sensors (SPEC §11), computed from the scenarios' sensors.
    ///   - observe: sees every cycle, of every quantity (for plots); nil costs nothing.
    public static func run(
        scenarios: [Scenario], rules: [Rule], derived: [DerivedSensorConfiguration] = [],
        observe: (@DaemonActor (PollCycle) -> Void)? = nil
    ) async -> [AlertEvent] {
        let data = SensorData()
        // A plot shows every sensor, also those of quantities no rule reads.
        let loop = TrackingLoop(data: data, quantities: observe == nil ? quantities(needed: rules) : Set(Quantity.allCases))

        let feeds = scenarios.enumerated().map { Feed(scenario: $1, source: "sim#\($0)") }
        let events = await withTaskGroup(of: [AlertEvent].self) { group in
            group.addTask { await evaluate(loop, rules: rules, observe: observe) }
            await play(feeds, derived: derived, into: data)
            group.cancelAll()
            return await group.next() ?? []
        }

        // Swift's sort is not stable; the arrival index keeps same-key events in order.
        return events.enumerated().sorted { a, b in
            if AlertEvent.inOrder(a.element, b.element) { return true }
            if AlertEvent.inOrder(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Runs the rules over every cycle the loop hands over, until cancelled.
    private static func evaluate(
        _ loop: TrackingLoop, rules: [Rule], observe: (@DaemonActor (PollCycle) -> Void)?
    ) async -> [AlertEvent] {
        var engine = RuleEngine(rules: rules)
        var events: [AlertEvent] = []
        await loop.run { cycle in
            observe?(cycle)
            engine.process(cycle, into: &events)
        }
        return events
    }

    /// Commits the feeds' polls (and the derived sensors computed from them) in time order;
    /// at equal times, in source order.
    private static func play(_ feeds: [Feed], derived: [DerivedSensorConfiguration], into data: SensorData) async {
        var feeds = feeds
        var deriving = DerivedFeed(derived, feeds: feeds)
        var commits = 0
        while let next = feeds.indices.filter({ feeds[$0].next != nil }).min(by: { feeds[$0].next! < feeds[$1].next! }) {
            let (time, tick) = feeds[next].advance()
            let list = feeds[next].list
            let read = feeds[next].reader.poll(at: time)
            let cycles = PollCycle.cycles(of: list, read, tick: tick ? time : nil)
            for cycle in cycles { data.commit(cycle) }
            if let derivedCycles = deriving?.polled(next, at: time, cycles: cycles, feeds: feeds) {
                for cycle in derivedCycles { data.commit(cycle) }
            }
            // Let the loop drain now and then: often enough to keep the log short, rarely
            // enough that task switches do not dominate.
            commits += 1
            if commits % 64 == 0 { await Task.yield() }
        }
    }

    /// The quantities the rules can select (every quantity when a rule names none).
    public static func quantities(needed rules: [Rule]) -> Set<Quantity> {
        var out: Set<Quantity> = []
        for rule in rules {
            if let q = rule.selector.quantity { out.insert(q) } else { return Set(Quantity.allCases) }
        }
        return out
    }

    /// One scenario's reader and its tick schedule: every `step` from 0 to `duration`, plus a
    /// last poll (no tick) at `duration` when it is not on a step, for explicit samples.
    private struct Feed: SimulatedFeed {
        let reader: SimulatedReader
        let list: SensorList
        let step: Int64
        let end: Int64
        var next: Timestamp?

        init(scenario: Scenario, source: String) {
            reader = SimulatedReader(scenario: scenario, loop: false)
            list = SensorList(source: source, sensors: reader.discover())
            step = max(1, scenario.step.nanoseconds)
            end = max(0, scenario.duration.nanoseconds)
            next = .zero
        }

        var finished: Bool { next == nil }

        mutating func advance() -> (Timestamp, tick: Bool) {
            let now = next!
            let onStep = now.nanoseconds % step == 0
            let following = (now.nanoseconds / step + 1) * step
            if now.nanoseconds >= end {
                next = nil
            } else {
                next = Timestamp(nanoseconds: min(following, end))
            }
            return (now, onStep)
        }
    }
}
