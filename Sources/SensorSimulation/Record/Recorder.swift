public import SensorConfig
public import SensorCore
public import SensorRuntime

/// Gathers the poll cycles of real sources into a scenario (SPEC §15): pure bookkeeping,
/// no threads, no clock, so its timeline rules are tested on cycles made up by hand.
///
/// - Time 0 is the first poll. Each source's times count from its own first tick: the
///   sources start together, and this keeps every source on its own exact grid (0, 1, 2 …)
///   instead of carrying the microseconds its poll thread took to start.
/// - Every read attempt becomes a sample, a failed one `null`; each sensor keeps its own
///   id, label and quantity. A sensor found later starts later; one that goes away just
///   stops (a replay then sees it go stale, as the daemon would have).
/// - One sensor's sample times strictly increase (SPEC §9): an attempt at or before the
///   sensor's last one is dropped, and so are the samples of an id a second source also
///   reports (the first source to report it keeps it).
/// - With a `limit`, samples later than `limit` are dropped (a `--duration` run).
public struct Recorder: Sendable {
    private struct Track: Sendable {
        var info: SensorInfo
        var source: String
        var samples: [TimedValue]
        /// The hardware alarms seen with its samples (SPEC §16b), by time: a BMC's failed PSU,
        /// a chip's latched crit alarm, so `simulate` and `test` replay them.
        var alarms: [Timestamp: HardwareAlarms] = [:]
    }

    private var tracks: [SensorID: Track] = [:]
    private var origins: [String: Timestamp] = [:]
    private let limit: Duration?

    /// How many cycles were taken in.
    public private(set) var polls = 0
    /// How many samples (failed reads included) are kept.
    public private(set) var sampleCount = 0
    /// The time of the latest sample kept, since the first poll.
    public private(set) var elapsed: Duration = .zero

    /// - Parameter limit: keep no sample later than this (nil: no limit).
    public init(limit: Duration? = nil) {
        self.limit = limit
    }

    /// How many sensors have at least one sample.
    public var sensorCount: Int { tracks.count }

    /// How far along a recording is, for a progress line.
    public struct Progress: Hashable, Sendable {
        /// Sensors with at least one sample.
        public var sensors: Int
        /// Samples kept, failed reads included.
        public var samples: Int
        /// Time of the latest sample since the first poll.
        public var elapsed: Duration

        /// A progress of the given counts.
        public init(sensors: Int, samples: Int, elapsed: Duration) {
            self.sensors = sensors
            self.samples = samples
            self.elapsed = elapsed
        }
    }

    /// The counts so far.
    public var progress: Progress { Progress(sensors: sensorCount, samples: sampleCount, elapsed: elapsed) }

    /// Takes in one poll of one source; the one place that reads a ``PollCycle``.
    /// Returns the cycle's tick since its source's first.
    @discardableResult
    public mutating func add(_ cycle: PollCycle) -> Duration {
        let sensors = cycle.sensors
        let alarms = cycle.readings.alarms
        return add(
            source: cycle.source, tick: cycle.time, sensors: sensors, samples: cycle.samples,
            alarms: alarms.isEmpty
                ? [:] : Dictionary(alarms.map { (sensors[$0.key].id, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Takes in one poll of `source` at the tick `tick` (run time): `samples` are its read
    /// attempts, of sensors in `sensors` (the source's list as discovered now). Returns
    /// `tick` since the source's first tick. `alarms`: the hardware alarms seen with a sample.
    @discardableResult
    public mutating func add(
        source: String, tick: Timestamp, sensors: [SensorInfo], samples: [Sample],
        alarms: [SensorID: HardwareAlarms] = [:]
    ) -> Duration {
        let origin = origins[source] ?? tick
        origins[source] = origin
        polls += 1
        guard !samples.isEmpty else { return tick - origin }
        // Built only when a sensor is seen for the first time.
        var infos: [SensorID: SensorInfo]?
        for sample in samples {
            let time = Timestamp(nanoseconds: sample.time.nanoseconds - origin.nanoseconds)
            if time < .zero { continue }
            if let limit, time.nanoseconds > limit.nanoseconds { continue }
            let value = TimedValue(time: time, value: sample.value)
            if let slot = tracks.index(forKey: sample.sensor) {
                // Appended where it stands: a copy of the track taken out and stored back
                // shares the buffer with the dictionary, so every append copied the whole
                // history (a recording slowed down quadratically).
                guard tracks.values[slot].source == source, time > tracks.values[slot].samples.last!.time else {
                    continue
                }
                tracks.values[slot].samples.append(value)
                if let set = alarms[sample.sensor] { tracks.values[slot].alarms[time] = set }
            } else {
                if infos == nil {
                    infos = Dictionary(sensors.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                }
                guard let info = infos?[sample.sensor] else { continue }
                tracks[sample.sensor] = Track(
                    info: info, source: source, samples: [value],
                    alarms: alarms[sample.sensor].map { [time: $0] } ?? [:])
            }
            sampleCount += 1
            elapsed = max(elapsed, time - .zero)
        }
        return tick - origin
    }

    /// The recording as a scenario: explicit samples per sensor, sensors in id order,
    /// `duration` the last sample's time, `loop: false`; nil when no sensor was read.
    ///
    /// - Parameter step: the smallest interval polled (the scenario's stale-tick period).
    public func scenario(step: Duration) -> Scenario? {
        guard !tracks.isEmpty else { return nil }
        let sensors = tracks.values.sorted { $0.info.id < $1.info.id }.map { track in
            ScenarioSensor(
                id: track.info.id.rawValue, quantity: track.info.quantity, label: track.info.label,
                feed: .samples(track.samples), limits: track.info.limits.values, alarms: track.alarms)
        }
        return Scenario(duration: elapsed, step: step, loop: false, sensors: sensors)
    }
}
