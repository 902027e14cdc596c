public import SensorConfig
public import SensorCore
public import SensorRuntime

/// `sensorwatch notify` (SPEC §17): one ``NotifyLane`` per target and journal, each on its
/// own; cursors kept in `notify.json`; READY once every lane has its starting point;
/// SIGHUP re-reads the `notify` list (lanes of unchanged targets keep running), SIGTERM
/// stops every lane (a running program gets SIGTERM) and returns.
@DaemonActor
public final class Notifier<C: RunClock> {
    /// What the notifier is built from.
    public struct Environment {
        /// The journals followed: `local`, or `--directory` paths.
        public var journals: [String]
        /// Opens a journal for one lane, positioned after the cursor (nil: at its end now).
        public var makeSource: @DaemonActor (_ journal: String, _ after: String?) throws -> any NotifyEventSource
        /// The delivery of one target, given what it kept.
        public var makeDelivery: @DaemonActor (NotifyTarget, NotifyTargetMemory) -> any NotifyDelivery
        /// Where cursors are kept.
        public var store: NotifyStateStore
        /// sd_notify, which the notifier's ``ServiceLifecycle`` sends through.
        public var notifier: any ServiceNotifier
        /// The notifier's own log.
        public var log: any DaemonLog
        /// Re-reads the `notify` list (SIGHUP).
        public var reload: @DaemonActor () throws(ConfigErrors) -> [NotifyTarget]
        /// The daemon's wakes, nudging the sources' waits; nil: the journal's own notice only.
        public var wake: NotifyWakeSocket?
        /// The silences already in the journals (SPEC §21), read once at the start; lanes
        /// add those written later.
        public var readSilences: @DaemonActor () -> SilenceBook
        /// The time of day, which silence times are in.
        public var wallClock: any WallClock

        /// An environment of the given parts; by default no wake socket, no silences read and the system's wall clock.
        public init(
            journals: [String], makeSource: @escaping @DaemonActor (String, String?) throws -> any NotifyEventSource,
            makeDelivery: @escaping @DaemonActor (NotifyTarget, NotifyTargetMemory) -> any NotifyDelivery,
            store: NotifyStateStore,
            notifier: any ServiceNotifier, log: any DaemonLog,
            reload: @escaping @DaemonActor () throws(ConfigErrors) -> [NotifyTarget],
            wake: NotifyWakeSocket? = nil, readSilences: @escaping @DaemonActor () -> SilenceBook = { SilenceBook() },
            wallClock: any WallClock = SystemWallClock()
        ) {
            self.readSilences = readSilences
            self.wallClock = wallClock
            self.journals = journals
            self.makeSource = makeSource
            self.makeDelivery = makeDelivery
            self.store = store
            self.notifier = notifier
            self.log = log
            self.reload = reload
            self.wake = wake
        }
    }

    private struct LaneKey: Hashable {
        var target: String
        var journal: String
    }

    private let environment: Environment
    private let clock: C
    /// READY, RELOADING, STOPPING and the watchdog's pings, as `run` sends them.
    private let lifecycle: ServiceLifecycle
    private var targets: [NotifyTarget]
    private var state: NotifyStateFile
    /// One lane per target and journal (SPEC §17), added and removed by reloads.
    private let lanes = ServiceSet<LaneKey>()
    /// Each target's delivery, by target key; its work between events runs in `upkeep`.
    private var deliveries: [String: any NotifyDelivery] = [:]
    private let upkeep = ServiceSet<String>()
    /// Writes notify.json off the delivery's path (a delivery goes on to the next event while
    /// the last one's cursor is made durable).
    private let writer: LatestValueWriter<NotifyStateFile>
    /// The silences every lane shares.
    private let silences = SilenceBoard()
    /// Whether notify.json was written by this run (it is, before READY).
    private var saved = false

    /// A notifier of `targets`; no lane runs before ``run(signals:)``.
    public init(targets: [NotifyTarget], environment: Environment, clock: C) {
        self.targets = targets
        self.environment = environment
        self.clock = clock
        lifecycle = ServiceLifecycle(notifier: environment.notifier)
        writer = environment.store.writer(log: environment.log)
        if let failure = writer.threadFailure {
            environment.log.log(.warning, "\(failure); notification cursors are written on the delivery's path")
        }
        let loaded = environment.store.load()
        state = loaded.state
        if let problem = loaded.problem { environment.log.log(.warning, problem) }
    }

    /// Runs until a stop signal (or the end of `signals`).
    public func run(signals: AsyncStream<DaemonSignal>) async {
        for silence in environment.readSilences().silences.values { silences.record(silence) }
        startLanes()
        // Every new target's starting point is kept before READY.
        await writer.flush()
        // Everything runs in one service group, shut down in reverse: the lanes first, then
        // the deliveries' upkeep, the wake socket and the watchdog's pings.
        var services: [any Service] = []
        // On the daemon's executor, like every lane: if a call blocks it, the pings stop and
        // systemd restarts the notifier.
        if let pings = lifecycle.watchdogPings(on: clock) { services.append(pings) }
        if let wake = environment.wake {
            services.append(ClosureService { [clock] in await wake.run(clock: clock) })
        }
        let group = ServiceGroup(services + [upkeep, lanes])
        await withTaskGroup(of: Void.self) { running in
            running.addTask { try? await group.run() }
            lifecycle.ready(status: status)
            await follow(signals)
            lifecycle.stopping()
            group.shutdown()
        }
        await releaseDeliveries()
    }

    /// Handles `signals` until a stop (or their end).
    private func follow(_ signals: AsyncStream<DaemonSignal>) async {
        for await signal in signals {
            switch signal {
            case .stop:
                return
            case .reload:
                lifecycle.reloading()
                do {
                    let fresh = try environment.reload()
                    targets = fresh
                    startLanes()
                    await writer.flush()
                    environment.log.log(.info, "notify list reloaded: \(status)")
                } catch {
                    let lines = error.errors.map(\.description).joined(separator: "; ")
                    environment.log.log(.error, "reload failed, keeping the running notify list: \(lines)")
                }
                lifecycle.ready(status: status)
            }
        }
    }

    private var status: String {
        "\(targets.count) target\(targets.count == 1 ? "" : "s"), \(environment.journals.count) journal\(environment.journals.count == 1 ? "" : "s")"
    }

    /// Starts the lanes of targets that have none and stops those of targets that are gone
    /// (their kept cursors are dropped: a target added again later starts afresh).
    private func startLanes() {
        let wanted = Set(targets.flatMap { t in environment.journals.map { LaneKey(target: t.key, journal: $0) } })
        for key in lanes.keys where !wanted.contains(key) { lanes.remove(key) }
        let keys = Set(targets.map(\.key))
        for key in deliveries.keys where !keys.contains(key) {
            upkeep.remove(key)
            deliveries[key] = nil
        }
        let before = state
        // State kept under a key with a URL's password (before URLs were masked) is taken
        // over, and the password leaves notify.json with this start's first write.
        for target in targets {
            if let old = target.keyWithPassword { state.moveTarget(from: old, to: target.key) }
        }
        state.targets = state.targets.filter { keys.contains($0.key) }
        for target in targets {
            let delivery = self.delivery(for: target)
            for journal in environment.journals {
                let key = LaneKey(target: target.key, journal: journal)
                guard !lanes.contains(key) else { continue }
                let kept = state.cursor(target: target.key, journal: journal)
                let source: any NotifyEventSource
                do {
                    source = try environment.makeSource(journal, kept)
                } catch {
                    environment.log.log(.error, "\(target.name): cannot follow the journal \(journal): \(error)")
                    continue
                }
                // A new target starts at the journal's end as it is now, kept at once so that a
                // restart before its first event does not skip what came in between; an empty
                // journal is kept as "from its start" (the empty cursor).
                if kept == nil {
                    state.setCursor(source.position ?? "", target: target.key, journal: journal)
                }
                // Silences hold back what an exec target runs; Alertmanager silences itself.
                var gate: SilenceGate?
                if case .exec = target.kind {
                    gate = SilenceGate(held: state.held(target: target.key, journal: journal))
                }
                let lane = NotifyLane(
                    target: target, source: source, delivery: delivery, clock: clock, log: environment.log,
                    silences: silences, gate: gate,
                    keepHeld: { [weak self] held in
                        self?.state.setHeld(held, target: target.key, journal: journal)
                        self?.save()
                    },
                    wallClock: environment.wallClock
                ) { [weak self] cursor in
                    self?.commit(cursor, target: target.key, journal: journal)
                }
                lanes.insert(key, lane)
            }
        }
        if state != before || !saved { save() }
    }

    /// The target's delivery, made (and its maintenance started) the first time; a kept one
    /// takes the target's timeout, which a reload may have changed.
    private func delivery(for target: NotifyTarget) -> any NotifyDelivery {
        if let existing = deliveries[target.key] {
            existing.timeout = target.timeout
            return existing
        }
        let key = target.key
        let memory = NotifyTargetMemory(
            firing: state.firing(target: key),
            keep: { [weak self] alerts in self?.state.setFiring(alerts, target: key) },
            silences: state.silences(target: key),
            keepSilences: { [weak self] silences in self?.state.setSilences(silences, target: key) })
        let delivery = environment.makeDelivery(target, memory)
        deliveries[key] = delivery
        upkeep.insert(key, ClosureService { await delivery.maintain() })
        return delivery
    }

    private func commit(_ cursor: String, target: String, journal: String) {
        state.setCursor(cursor, target: target, journal: journal)
        save()
    }

    private func save() {
        writer.submit(state)
        saved = true
    }

    /// How long the programs of stopped deliveries get to end at a stop before SIGKILL.
    static var releaseLimit: Duration { .milliseconds(500) }

    /// After the group's stop: the programs of every delivery get `releaseLimit` to end
    /// before SIGKILL, and every cursor is written.
    private func releaseDeliveries() async {
        let stopped = Array(deliveries.values)
        deliveries.removeAll()
        let deadline = clock.now.advanced(by: Self.releaseLimit)
        for delivery in stopped { await delivery.release(within: clock.now.duration(to: deadline)) }
        await writer.flush()
    }
}
