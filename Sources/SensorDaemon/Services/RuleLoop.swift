import SensorRuntime
import SensorCore

/// The rule loop as a service: a ``TrackingLoop`` hands every committed cycle to the
/// ``RuleEngine``, events go to the sink and the ``AlertLedger``, and each turn feeds the
/// watchdog — so a stuck loop stops the pings. Cancelled, it evaluates everything
/// committed so far, then returns.
@DaemonActor
final class RuleLoop: Service {
    private let data: SensorData
    private let sink: any AlertSink
    private let ledger: AlertLedger
    private let lifecycle: ServiceLifecycle
    private let runTime: RunTime
    private let trimMemory: @Sendable () -> Void
    private var engine: RuleEngine
    private let loop: TrackingLoop
    private var lastPing: Timestamp
    private var lastTrim: Timestamp

    /// A drain this large means the loop fell behind (a busy machine): the backlog's memory
    /// is free again, but glibc keeps it unless asked to give it back.
    static var backlogWorthTrimming: Int { 32 }
    /// How often freed heap memory is given back at the latest (in a turn the loop makes
    /// anyway: never a wake-up of its own).
    static var trimInterval: Duration { .seconds(10) }

    init(
        rules: [Rule], data: SensorData, sink: any AlertSink, ledger: AlertLedger, lifecycle: ServiceLifecycle,
        runTime: RunTime, trimMemory: @escaping @Sendable () -> Void
    ) {
        self.data = data
        self.sink = sink
        self.ledger = ledger
        self.lifecycle = lifecycle
        self.runTime = runTime
        self.trimMemory = trimMemory
        engine = RuleEngine(rules: rules)
        engine.restoreFiring(ledger.keys)
        loop = TrackingLoop(data: data, quantities: Rule.quantities(neededBy: rules), heartbeat: true)
        lastPing = runTime.now
        lastTrim = runTime.now
    }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            // With a watchdog, a beat wakes the loop when no sensor changes, so it still pings.
            if let watchdog = lifecycle.watchdogTimeout {
                group.addTask { [data, runTime] in
                    while (try? await runTime.sleep(for: watchdog / 4)) != nil { await data.beat() }
                }
            }
            await loop.run({ cycle in handle(cycle) }, iteration: { iteration() })
            group.cancelAll()
        }
    }

    /// Switches to new rules after evaluating, with the old ones, every cycle committed
    /// so far; alerts of rules that still exist keep their state.
    func replaceRules(_ rules: [Rule]) {
        loop.drain { cycle in handle(cycle) }
        engine.replaceRules(rules, at: runTime.now)
        loop.track(Rule.quantities(neededBy: rules))
    }

    /// The engine as it is now (a copy: its arrays are shared until it changes).
    var rules: RuleEngine { engine }

    /// Forgets what the engine keeps per list for a source that stopped.
    func forget(source: String) { engine.forget(source: source) }

    private func handle(_ cycle: PollCycle) {
        var events: [AlertEvent] = []
        engine.process(cycle, into: &events)
        guard !events.isEmpty else { return }
        for event in events { sink.emit(event) }
        ledger.record(events)
    }

    private func iteration() {
        let t = runTime.now
        // Bursts of events free what they allocated, but glibc keeps the pages; give them
        // back after a backlog and otherwise every `trimInterval`, so RSS stays flat.
        if loop.lastDrainCount >= Self.backlogWorthTrimming || t - lastTrim >= Self.trimInterval {
            lastTrim = t
            trimMemory()
        }
        if let watchdog = lifecycle.watchdogTimeout, t - lastPing >= watchdog / 4 {
            lastPing = t
            lifecycle.watchdog()
        }
    }
}
