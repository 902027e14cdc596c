public import SensorRuntime
public import SensorCore
public import SensorConfig
import SensorDaemon

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
        let loop = TrackingLoop(
            data: data, quantities: observe == nil ? Rule.quantities(neededBy: rules) : Set(Quantity.allCases))

        // The sources run through the daemon's supervisor, stepped in virtual time.
        let clock = VirtualClock()
        let start = clock.now
        let supervisor = SourceSupervisor(
            sources: scenarios.map { SourceConfiguration(kind: .simulated, interval: $0.step, scenario: $0) },
            derived: derived, data: data, makeReader: { SimulatedReader(configuration: $0, loop: false, ahead: true) },
            makePacer: { PollPacer(clock: clock, start: start) }, wait: { _ in }, log: MemoryLog())
        let events = await withTaskGroup(of: [AlertEvent].self) { group in
            group.addTask { await evaluate(loop, rules: rules, observe: observe) }
            await supervisor.play(on: clock)
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
}
