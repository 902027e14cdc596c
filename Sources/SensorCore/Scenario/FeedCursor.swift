#if canImport(Glibc)
import Glibc
#endif

/// Walks one scenario sensor's samples in time order, computing each on demand.
///
/// Nothing is stored per sample, so a long scenario with a short step costs no memory;
/// a generated value at step `i` is computed at time `i · step` in integer nanoseconds.
/// Times are relative to the scenario's start.
public struct FeedCursor: Sendable {
    /// The sensor's id (`sim:<id>`).
    public let sensor: SensorID
    /// Relative time of the next sample in nanoseconds; `Int64.max` when there is none.
    public private(set) var nextTime: Int64 = .max

    private let feed: Feed
    private var index = 0
    // The sensor's latched alarms (SPEC §16b) by time, the next one not yet seen, and those
    // due but not yet seen with a successful reading.
    private let alarmTimes: [Int64]
    private let alarmSets: [HardwareAlarms]
    private var alarmIndex = 0
    private var pendingAlarms: HardwareAlarms = []
    // Generated feeds only: the segment the last sample fell in, the value the curve
    // holds at that segment's start, and the noise stream.
    private var segmentIndex = 0
    private var value = 0.0
    private var random: SplitMix64

    private enum Feed: Sendable {
        case explicit(times: [Int64], values: [Double?], count: Int)
        case generated(Generated)
    }

    private struct Generated: Sendable {
        var start: Double
        var step: Int64
        var count: Int
        var noise: Double
        var segments: [Piece]
    }

    /// A segment placed on the timeline: covers [start, end); `from`/`to` are the values at
    /// its start and after it.
    private struct Piece: Sendable {
        enum Shape: Sendable {
            case ramp, hold, sine(amplitude: Double, period: Double), dropout
        }
        var shape: Shape
        var start: Int64
        var end: Int64
        var from: Double
        var to: Double
    }

    /// The fault text of a generated sample inside a `dropout`.
    public static let dropoutFault = "simulated dropout"
    /// The fault text of an explicit `null` sample.
    public static let failedReadFault = "simulated failed read"

    /// - Parameters:
    ///   - index: the sensor's position in `scenario.sensors`; it picks the noise stream.
    ///   - scenario: gives `step`, `duration` and `seed`.
    ///   - endingBefore: when set, samples at or after this relative time are left out
    ///     (a looping playback drops the sample at `duration`, which the next round's
    ///     sample at 0 replaces); otherwise generated samples run through `duration`.
    public init(sensorAt index: Int, of scenario: Scenario, endingBefore end: Duration? = nil) {
        let sensor = scenario.sensors[index]
        self.sensor = sensor.info.id
        let alarms = sensor.alarms.sorted { $0.key < $1.key }
        alarmTimes = alarms.map(\.key.nanoseconds)
        alarmSets = alarms.map(\.value)
        random = SplitMix64(seed: scenario.seed ^ (0xD1B5_4A32_D192_ED03 &* UInt64(index + 1)))
        let limit = end.map { $0.nanoseconds } ?? .max
        switch sensor.feed {
        case .samples(let samples):
            let times = samples.map(\.time.nanoseconds)
            feed = .explicit(times: times, values: samples.map(\.value), count: times.prefix { $0 < limit }.count)
        case .generated(let start, let segments, let noise):
            let step = max(scenario.step.nanoseconds, 1)
            let duration = scenario.duration.nanoseconds
            var count = duration < 0 ? 0 : Int(duration / step) + 1
            if end != nil, count > 0, Int64(count - 1) * step >= limit {
                count = limit <= 0 ? 0 : Int((limit - 1) / step + 1)
            }
            feed = .generated(
                Generated(start: start, step: step, count: count, noise: noise, segments: Self.place(segments, from: start)))
            value = start
        }
        updateNextTime()
    }

    private static func place(_ segments: [Segment], from start: Double) -> [Piece] {
        var pieces: [Piece] = []
        var t: Int64 = 0
        var v = start
        for segment in segments {
            let piece: Piece
            switch segment {
            case .ramp(let to, let over):
                piece = Piece(shape: .ramp, start: t, end: t &+ over.nanoseconds, from: v, to: to)
            case .hold(let d):
                piece = Piece(shape: .hold, start: t, end: t &+ d.nanoseconds, from: v, to: v)
            case .step(let to):
                piece = Piece(shape: .hold, start: t, end: t, from: v, to: to)
            case .sine(let amplitude, let period, let over):
                piece = Piece(
                    shape: .sine(amplitude: amplitude, period: Double(period.nanoseconds)),
                    start: t, end: t &+ over.nanoseconds, from: v, to: v)
            case .dropout(let d):
                piece = Piece(shape: .dropout, start: t, end: t &+ d.nanoseconds, from: v, to: v)
            }
            pieces.append(piece)
            t = piece.end
            v = piece.to
        }
        return pieces
    }

    private mutating func updateNextTime() {
        switch feed {
        case .explicit(let times, _, let count): nextTime = index < count ? times[index] : .max
        case .generated(let g): nextTime = index < g.count ? Int64(index) * g.step : .max
        }
    }

    /// The next sample, or nil when the feed is exhausted.
    public mutating func next() -> Sample? {
        guard let r = nextReading() else { return nil }
        if let fault = r.fault { return Sample(sensor: sensor, time: r.time, fault: fault) }
        return Sample(sensor: sensor, time: r.time, value: r.value!)
    }

    /// The next reading without the sensor's id (no string copied per sample): its time
    /// shifted by `offset`, and a value or a fault; nil when the feed is exhausted.
    public mutating func nextReading(offset: Int64 = 0) -> (time: Timestamp, value: Double?, fault: String?)? {
        nextAlarmedReading(offset: offset).map { ($0.time, $0.value, $0.fault?.text) }
    }

    /// ``nextReading(offset:)`` with the latched alarms seen at it: those due at or before its
    /// time, on its first successful reading (a failed read sees none, and they wait).
    public mutating func nextAlarmedReading(offset: Int64 = 0) -> FeedReading? {
        let t = nextTime
        guard t != .max else { return nil }
        let time = Timestamp(nanoseconds: offset &+ t)
        let reading: (time: Timestamp, value: Double?, fault: FeedReading.Fault?)
        switch feed {
        case .explicit(_, let values, _):
            reading = values[index].map { (time, $0, nil) } ?? (time, nil, .failedRead)
        case .generated(let g):
            let noise = g.noise > 0 ? random.offset(upTo: g.noise) : 0
            reading = generatedValue(at: t, g).map { (time, $0 + noise, nil) } ?? (time, nil, .dropout)
        }
        index += 1
        updateNextTime()
        while alarmIndex < alarmTimes.count, alarmTimes[alarmIndex] <= t {
            pendingAlarms.formUnion(alarmSets[alarmIndex])
            alarmIndex += 1
        }
        var seen: HardwareAlarms = []
        if reading.value != nil, !pendingAlarms.isEmpty { swap(&seen, &pendingAlarms) }
        return FeedReading(time: reading.time, value: reading.value, fault: reading.fault, alarms: seen)
    }

    /// The curve's value at `t` (nil inside a dropout); `t` never decreases between calls.
    private mutating func generatedValue(at t: Int64, _ g: Generated) -> Double? {
        // Half-open segments: a sample at a segment's end belongs to what follows, so a
        // ramp's end sample is its target and a step's own time already has the new value.
        while segmentIndex < g.segments.count, t >= g.segments[segmentIndex].end {
            value = g.segments[segmentIndex].to
            segmentIndex += 1
        }
        guard segmentIndex < g.segments.count else { return value }
        let piece = g.segments[segmentIndex]
        let elapsed = Double(t - piece.start)
        switch piece.shape {
        case .hold: return piece.from
        case .ramp: return piece.from + (piece.to - piece.from) * elapsed / Double(piece.end - piece.start)
        case .sine(let amplitude, let period): return piece.from + amplitude * sin(2 * Double.pi * elapsed / period)
        case .dropout: return nil
        }
    }
}
