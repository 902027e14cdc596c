/// Keeps what the metrics file shows that no other part keeps: each sensor's latest
/// successful reading and whether its latest read succeeded, and per-rule event counts.
///
/// One more observer of the poll cycles the daemon commits and of the events it sends.
/// Recording must stay cheap at a thousand sensors every 100 ms: a cycle in which every
/// read succeeded (the common case) is only kept, in O(1); its values are folded into the
/// per-sensor arrays when a later cycle has faults or a snapshot is taken.
public struct MetricsRecorder: Sendable {
    /// The latest successful reads of one source's sensors, aligned with its sensor list.
    private struct SourceState: Sendable {
        var list: SensorList?
        /// NaN where no read of that sensor has succeeded yet.
        var value: [Double] = []
        /// Unix seconds of `value` (NaN with it), kept as the snapshot shows them, so that a
        /// snapshot shares this array rather than converting a thousand times.
        var lastReading: [Double] = []
        var up: [Bool] = []
        var attempted: [Bool] = []
        /// The newest cycle, when it read every sensor and every read succeeded, not folded in yet.
        var pending: PollCycle?

        var sensors: [SensorInfo] { list?.sensors ?? [] }

        /// Adopts a new sensor list, carrying over what is known of sensors still in it.
        mutating func adopt(_ next: SensorList) {
            guard list !== next else { return }
            let old = self
            list = next
            let count = next.count
            value = Array(repeating: .nan, count: count)
            lastReading = Array(repeating: .nan, count: count)
            up = Array(repeating: false, count: count)
            attempted = up
            guard let previous = old.list else { return }
            for (i, info) in next.sensors.enumerated() {
                guard let j = previous.positions[info.id] else { continue }
                (value[i], lastReading[i], up[i], attempted[i]) = (old.value[j], old.lastReading[j], old.up[j], old.attempted[j])
            }
        }

        mutating func fold(_ cycle: PollCycle, startTime: Double) {
            let readings = cycle.readings
            let time = startTime + cycle.time.seconds
            readings.values.withUnsafeBufferPointer { read in
                for i in read.indices where readings.wasRead(i) {
                    // Written only when it changes: the renderer's layout shares the array.
                    if !attempted[i] { attempted[i] = true }
                    let v = read[i]
                    if v.isNaN {
                        up[i] = false
                    } else {
                        (value[i], lastReading[i], up[i]) = (v, time, true)
                    }
                }
            }
        }

        mutating func record(_ cycle: PollCycle, startTime: Double) {
            let readings = cycle.readings
            if list === cycle.list, readings.faults.isEmpty, !readings.values.contains(where: \.isNaN) {
                // Every sensor was read now, successfully: this cycle supersedes any pending.
                pending = cycle
            } else {
                foldPending(startTime: startTime)
                adopt(cycle.list)
                fold(cycle, startTime: startTime)
            }
        }

        mutating func foldPending(startTime: Double) {
            if let cycle = pending {
                pending = nil
                fold(cycle, startTime: startTime)
            }
        }
    }

    private var sources: [String: SourceState] = [:]
    private var counts: [String: [UInt64]] = [:]
    /// How many alerts the last snapshot had (room is made for as many next time).
    private var alertCount = 0
    /// Unix time of the run's time zero.
    public let startTime: Double

    /// - Parameter startTime: Unix time (seconds) of the run's time zero, which turns the
    ///   run-relative times of samples into Unix times.
    public init(startTime: Double) {
        self.startTime = startTime
    }

    /// Notes one committed poll cycle.
    public mutating func record(_ cycle: PollCycle) {
        guard cycle.list.count > 0 else { return }
        sources[cycle.source, default: SourceState()].record(cycle, startTime: startTime)
    }

    /// Forgets a source that stopped (its sensors are gone from the file).
    public mutating func forget(source: String) {
        sources[source] = nil
    }

    /// Counts one event its rule sent.
    public mutating func count(_ event: AlertEvent) {
        let i = Self.kinds.firstIndex(of: event.kind)!
        counts[event.rule, default: [0, 0, 0]][i] += 1
    }

    private static let kinds: [EventKind] = [.firing, .resolved, .repeat]

    /// The snapshot of what is recorded plus the alerts of `engine`.
    ///
    /// - Parameter version: the binary's version, for `sensorwatch_build_info`.
    public mutating func snapshot(engine: RuleEngine, version: String) -> MetricsSnapshot {
        var out = MetricsSnapshot(version: version, startTime: startTime)
        for key in sources.keys.sorted() {
            sources[key]!.foldPending(startTime: startTime)
            let s = sources[key]!
            // The arrays are shared with the recorder, not copied.
            out.groups.append(
                .init(sensors: s.sensors, attempted: s.attempted, up: s.up, value: s.value, lastReading: s.lastReading))
        }
        out.alerts.rules = engine.rules
        out.alerts.sensors = engine.sensors
        out.alerts.entries.reserveCapacity(alertCount)
        engine.forEachAlert { r, e, firing in out.alerts.entries.append(.init(rule: r, sensor: e, firing: firing)) }
        for rule in engine.rules {
            let c = counts[rule.name] ?? [0, 0, 0]
            for (i, kind) in Self.kinds.enumerated() {
                out.events.append(.init(rule: rule.name, event: kind, count: c[i]))
            }
        }
        alertCount = out.alerts.entries.count
        return out
    }
}
