package import SensorRuntime
package import SensorCore
package import SensorConfig

/// Runs the configured sources: one ``SourcePoller`` each, whose discoveries and cycles it
/// commits to ``SensorData``, followed by the derived sensors (SPEC §11) it computes from
/// them. A service: cancelled, it stops every poller. `run` (``Daemon``) and `record`
/// (``RecordingSession``) drive their sources through it.
///
/// Nothing here touches a source's files: discovery and polls run on the pollers' threads,
/// so a `type`, `name` or label file that blocks stalls only its own source — never the
/// ``DaemonActor``, READY, a reload or SIGTERM. `simulate` and `test` drive scenario
/// sources through it too, in virtual time (``play()``): the same pollers, commits and
/// derived sensors, stepped by the supervisor instead of threads.
@DaemonActor
package final class SourceSupervisor: Service {
    /// A polled source and its configuration.
    private struct Running {
        var configuration: SourceConfiguration
        var poller: SourcePoller
    }

    private let data: SensorData
    private let makeReader: @Sendable (SourceConfiguration) -> any SensorReader
    private let makePacer: @DaemonActor () -> PollPacer
    /// Called once the first discoveries are in (or the wait for them is over).
    var onStarted: @DaemonActor () -> Void = {}
    /// Called with the key of each source that stopped.
    var onStopped: @DaemonActor (String) -> Void = { _ in }
    /// Called with the sensors that appeared or went at a running source's rediscovery
    /// (SPEC §20); not for a source's first list, nor for a source that stopped.
    var onPresence: @DaemonActor ([SensorPresence]) -> Void = { _ in }
    private var configurations: [SourceConfiguration]
    /// Derived sensors, fed from every committed cycle.
    private var derived: DerivedSensors
    private var running: [Running] = []
    private var started = 0
    /// Sources whose first discovery has not come in yet, and who waits for them.
    private var undiscovered: Set<String> = []
    private var discovered: ChangeSignal?

    /// How long READY waits for the first discoveries: a source whose discovery blocks (a
    /// wedged driver behind a label file) joins when it can.
    static var discoveryWait: Duration { .seconds(1) }
    private let wait: @Sendable (Duration) async -> Void
    /// Where a discovery that leaves sensors out says so.
    private let log: any DaemonLog
    /// What each source's last discovery left out, to say each change once.
    private var leftOut: [String: [String]] = [:]
    /// Sensors left unread for want of open files, said once per change across sources.
    private var shortage: FileShortageTally

    package init(
        sources: [SourceConfiguration], derived: [DerivedSensorConfiguration], data: SensorData,
        makeReader: @escaping @Sendable (SourceConfiguration) -> any SensorReader,
        makePacer: @escaping @DaemonActor () -> PollPacer,
        wait: @escaping @Sendable (Duration) async -> Void, log: any DaemonLog
    ) {
        self.log = log
        shortage = FileShortageTally(log: log)
        configurations = sources
        self.derived = DerivedSensors(derived)
        self.data = data
        self.makeReader = makeReader
        self.makePacer = makePacer
        self.wait = wait
    }

    package func run() async {
        apply(configurations)
        await firstDiscoveries()
        onStarted()
        await untilCancelled()
        for source in running { stop(source) }
        running = []
    }

    /// Runs `sources` from now on: unchanged ones keep running (their open files, a
    /// scenario's position) and rediscover; changed and removed ones stop; new ones start.
    /// Changed derived sensors start afresh.
    func apply(_ sources: [SourceConfiguration], derived next: [DerivedSensorConfiguration]) {
        if next != derived.configurations {
            for d in derived.configurations.indices { data.remove(source: "derived#\(d)") }
            derived = DerivedSensors(next)
        }
        apply(sources)
    }

    private func apply(_ sources: [SourceConfiguration]) {
        configurations = sources
        var keep: [Running] = []
        var spare = running
        for config in sources {
            if let i = spare.firstIndex(where: { $0.configuration == config }) {
                let kept = spare.remove(at: i)
                kept.poller.requestDiscovery()
                keep.append(kept)
            } else if let poller = start(config) {
                keep.append(Running(configuration: config, poller: poller))
            }
        }
        for source in spare { stop(source) }
        running = keep
    }

    /// Starts polling `config`; nil when it cannot be polled at all (no thread for it and
    /// none for its stall watch): it is not running, so the next reload starts it afresh.
    private func start(_ config: SourceConfiguration) -> SourcePoller? {
        let reader = makeReader(config)
        started += 1
        let key = "\(reader.source)#\(started)"
        // The poll thread commits its own cycles and runs the rule loop's turn they make
        // ready (DaemonActor.donate): one thread wakes per poll.
        let poller = SourcePoller(
            reader: reader, interval: config.interval, pacer: makePacer(), key: key,
            // Every source has a stall watch: a file that blocks costs its own sensor (SPEC §8).
            watchStalls: true
        ) { [weak self] list, cycles in
            DaemonActor.donate { self?.receive(list, cycles) }
        }
        undiscovered.insert(key)
        do {
            try poller.start()
        } catch {
            guard poller.watchFailure == nil else {
                poller.stop()
                undiscovered.remove(key)
                log.log(.error, "source \(key) is not polled: \(error); a reload (SIGHUP) tries again")
                return nil
            }
            let look = Int(SourcePoller.look / .milliseconds(1))
            log.log(.error, "source \(key): \(error); tried again every \(look) ms, its sensors go stale meanwhile")
        }
        if let failure = poller.watchFailure {
            log.log(.warning, "source \(key): \(failure); a file that blocks stalls the whole source")
        }
        return poller
    }

    private func stop(_ source: Running) {
        leftOut[source.poller.key] = nil
        shortage.remove(source.poller.key)
        source.poller.stop()
        // Before the process can end: a BMC's session is given back now, not at exit.
        source.poller.reader.close()
        undiscovered.remove(source.poller.key)
        data.remove(source: source.poller.key)
        derived.forget(source: source.poller.key)
        onStopped(source.poller.key)
    }

    /// Plays the scenario sources in virtual time, as fast as the CPU allows, and returns
    /// when every one has reached its `duration`. No threads: the poller whose next poll is
    /// earliest (ties: source order) polls on this task, each source at every `step` of its
    /// scenario from 0 to `duration` (ticks: `stale` is checked) and once more at `duration`
    /// when that is off a step (no tick; explicit samples may lie there). Derived sensors are
    /// computed up to the earliest time every unfinished source has polled, so a scenario's
    /// tick never stands for another's inputs (SPEC §11). `clock` (the pacers' clock) is
    /// moved to each poll's time. Not with ``run()``.
    ///
    /// A source's polls that come before any other source's next one are taken as one
    /// (``virtualBatch`` steps' worth of samples at most): the same cycles in the same order,
    /// without a poll's own cost at every step (bench/README.md).
    package func play(on clock: VirtualClock) async {
        virtual = true
        defer { virtual = false }
        var schedules: [VirtualSchedule] = []
        for config in configurations {
            let poller = SourcePoller(
                reader: makeReader(config), interval: config.interval, pacer: makePacer(), key: "sim#\(schedules.count)"
            ) { [weak self] list, cycles in
                // On this task already: the supervisor polls, so it is the actor.
                DaemonActor.assumeIsolated { self?.receive(list, cycles) }
            }
            running.append(Running(configuration: config, poller: poller))
            poller.discoverNow(at: .zero)
            schedules.append(VirtualSchedule(config.scenario))
        }
        // All up front: a source that has not polled yet still holds its inputs.
        for source in running { derived.learn(source: source.poller.key, sensors: source.poller.list.sensors) }
        var lastPoll = Array(repeating: Timestamp(nanoseconds: -1), count: schedules.count)
        let sensors = configurations.map { $0.scenario?.sensors.count ?? 0 }
        let batches = sensors.map { max(1, Self.virtualBatch / max(1, $0)) }
        var sinceYield = 0
        while let next = Self.earliest(schedules) {
            var others: Timestamp?
            for i in schedules.indices where i != next {
                if let t = schedules[i].next, others.map({ t < $0 }) ?? true { others = t }
            }
            let (first, time, ticks) = schedules[next].advance(upTo: batches[next], before: others)
            clock.advance(by: Duration.nanoseconds(time.nanoseconds) - clock.now.offset)
            running[next].poller.pollNow(from: first, through: time, ticks: ticks)
            lastPoll[next] = time
            if !derived.isEmpty {
                var watermark = Timestamp(nanoseconds: .max)
                for i in schedules.indices where schedules[i].next != nil { watermark = min(watermark, lastPoll[i]) }
                commitDerived(through: watermark)
            }
            // Let the observers drain now and then: often enough to keep the cycle log
            // short (a batch's samples, which a scenario played ahead stays ahead of),
            // rarely enough that task switches do not dominate.
            sinceYield += max(1, ticks.count) * max(1, sensors[next])
            if sinceYield >= Self.virtualBatch {
                sinceYield = 0
                await Task.yield()
            }
        }
        running = []
    }

    /// How many samples' worth of a source's steps ``play(on:)`` takes as one poll at most.
    package nonisolated static let virtualBatch = 2048

    /// The schedule whose next poll is earliest (ties: the first), nil when all are done.
    private static func earliest(_ schedules: [VirtualSchedule]) -> Int? {
        var best: Int?
        for i in schedules.indices {
            guard let t = schedules[i].next else { continue }
            if let b = best, schedules[b].next! <= t { continue }
            best = i
        }
        return best
    }

    /// In ``play()``: derived sensors wait for the watermark instead of each cycle's time.
    private var virtual = false

    /// Commits what a poller delivered, unless its source has stopped meanwhile.
    private func receive(_ list: SensorList, _ cycles: [PollCycle]) {
        guard
            running.indices.contains(where: { running[$0].poller.key == list.source })
                || undiscovered.contains(list.source)
        else { return }
        let changed = data.adopt(list)
        if !changed.isEmpty { onPresence(changed) }
        // Hashing the key only when something is or was left out: a delivery of every poll.
        if !(list.leftOut.isEmpty && leftOut.isEmpty), list.leftOut != leftOut[list.source, default: []] {
            let before = Set(leftOut[list.source, default: []])
            for line in list.leftOut where !before.contains(line) { log.log(.warning, line) }
            leftOut[list.source] = list.leftOut
        }
        // The latest instant speaks for the source now.
        if let last = cycles.last?.readings {
            let unread = last.faults.isEmpty ? 0 : last.faults.values.count(where: OpenFileLimit.isShortage)
            shortage.update(list.source, unread: unread) { sensorCount() }
        }
        if derived.isEmpty {
            data.commit(cycles)
        } else {
            // Each cycle's derived readings right after it (in `run`; `simulate` waits for
            // the watermark).
            for i in cycles.indices {
                data.commit(cycles[i])
                derived.record(cycles[i])
                if !virtual { commitDerived(through: cycles[i].time) }
            }
        }
        if !undiscovered.isEmpty, undiscovered.remove(list.source) != nil, undiscovered.isEmpty { discovered?.fire() }
    }

    /// How many sensors the running sources listed at their last discoveries.
    private func sensorCount() -> Int {
        running.reduce(0) { $0 + $1.poller.list.count }
    }

    /// Computes the derived sensors from the cycles recorded up to `time` (in `run`, a
    /// committed cycle's: its inputs share its time) and commits their readings and ticks
    /// as cycles of their own.
    private func commitDerived(through time: Timestamp) {
        let steps = derived.drain(through: time)
        // Most cycles of a source without inputs change nothing here: build no sensor list.
        guard !steps.isEmpty else { return }
        for derivedCycle in derived.cycles(of: steps) {
            data.commit(derivedCycle)
        }
    }

    /// Waits until every source has discovered once, or ``discoveryWait`` has passed.
    private func firstDiscoveries() async {
        guard !undiscovered.isEmpty else { return }
        let signal = ChangeSignal()
        discovered = signal
        defer { discovered = nil }
        let wait = self.wait
        _ = await untilSignalled(
            signal,
            or: {
                await wait(Self.discoveryWait)
                return true
            })
        signal.fire()
    }
}
