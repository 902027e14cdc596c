#if canImport(Glibc)
import Glibc
#endif
public import SensorConfig
public import SensorCore
public import SensorRuntime

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

    // The feed, flat: matching on an enum of the two kinds copied its arrays' references out
    // (a retain and a release) twice a sample. Explicit samples: `times` and `values`;
    // generated: `step` > 0, every `step` from 0, `count` in all either way.
    private let times: [Int64]
    private let values: [Double?]
    private let step: Int64
    private let count: Int
    private let noise: Double
    private let segments: [Piece]
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
            times = samples.map(\.time.nanoseconds)
            values = samples.map(\.value)
            count = times.prefix { $0 < limit }.count
            step = 0
            noise = 0
            segments = []
        case .generated(let start, let segments, let noise):
            let step = max(scenario.step.nanoseconds, 1)
            let duration = scenario.duration.nanoseconds
            var count = duration < 0 ? 0 : Int(duration / step) + 1
            if end != nil, count > 0, Int64(count - 1) * step >= limit {
                count = limit <= 0 ? 0 : Int((limit - 1) / step + 1)
            }
            times = []
            values = []
            self.step = step
            self.count = count
            self.noise = noise
            self.segments = Self.place(segments, from: start)
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
        nextTime = index >= count ? .max : step > 0 ? Int64(index) * step : times[index]
    }

    /// The next sample, or nil when the feed is exhausted.
    public mutating func next() -> Sample? {
        guard let r = nextReading() else { return nil }
        if let fault = r.fault { return Sample(sensor: sensor, time: r.time, fault: fault) }
        return Sample(sensor: sensor, time: r.time, value: r.value!)
    }

    /// The next reading without the sensor's id (no string copied per sample): its time
    /// shifted by `offset`, and a value or a fault; nil when the feed is exhausted.
    public mutating func nextReading(offset: Int64 = 0) -> (time: Timestamp, value: Double?, fault: ReadFault?)? {
        nextAlarmedReading(offset: offset).map { ($0.time, $0.value, $0.fault.map { .other($0.text) }) }
    }

    /// ``nextReading(offset:)`` with the latched alarms seen at it: those due at or before its
    /// time, on its first successful reading (a failed read sees none, and they wait).
    public mutating func nextAlarmedReading(offset: Int64 = 0) -> FeedReading? {
        let t = nextTime
        guard t != .max else { return nil }
        let time = Timestamp(nanoseconds: offset &+ t)
        let reading: (time: Timestamp, value: Double?, fault: FeedReading.Fault?)
        if step > 0 {
            let jitter = noise > 0 ? random.offset(upTo: noise) : 0
            reading = generatedValue(at: t).map { (time, $0 + jitter, nil) } ?? (time, nil, .dropout)
        } else {
            reading = values[index].map { (time, $0, nil) } ?? (time, nil, .failedRead)
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
    private mutating func generatedValue(at t: Int64) -> Double? {
        // Half-open segments: a sample at a segment's end belongs to what follows, so a
        // ramp's end sample is its target and a step's own time already has the new value.
        while segmentIndex < segments.count, t >= segments[segmentIndex].end {
            value = segments[segmentIndex].to
            segmentIndex += 1
        }
        guard segmentIndex < segments.count else { return value }
        let piece = segments[segmentIndex]
        let elapsed = Double(t - piece.start)
        switch piece.shape {
        case .hold: return piece.from
        case .ramp: return piece.from + (piece.to - piece.from) * elapsed / Double(piece.end - piece.start)
        case .sine(let amplitude, let period): return piece.from + amplitude * sin(2 * Double.pi * elapsed / period)
        case .dropout: return nil
        }
    }
}
