import SensorCore
import SensorRuntime

/// One sensor's read attempts over a simulation, in time order, for its panel.
///
/// Kept as two flat arrays (nanoseconds, and the value or NaN for a failed read) plus the
/// reasons of the failed reads: 16 bytes a reading, so a day of one-second readings of 50
/// sensors stays under 100 MB. Times stay exact, so a prediction recomputed from them
/// windows the samples exactly as the rule did.
package struct PlotSeries: Sendable {
    /// The sensor.
    let info: SensorInfo
    /// Times of the read attempts.
    private var stamps: [Int64] = []
    /// The values read; NaN for a failed read.
    private var readings: [Double] = []
    /// Why each failed read failed, by position.
    private var faults: [Int: String] = [:]

    init(info: SensorInfo) { self.info = info }

    /// Adds a read attempt at `time`: a value, or a failed read (with its reason). Callers
    /// add them in time order.
    mutating func append(time: Timestamp, value: Double?, fault: String?) {
        if let value {
            readings.append(value)
        } else {
            faults[readings.count] = fault ?? "failed read"
            readings.append(.nan)
        }
        stamps.append(time.nanoseconds)
    }

    /// The time of read attempt `i`, in seconds.
    func time(_ i: Int) -> Double { Timestamp(nanoseconds: stamps[i]).seconds }

    /// The value of read attempt `i`; nil for a failed read.
    func value(_ i: Int) -> Double? { readings[i].isNaN ? nil : readings[i] }

    /// The lowest and highest value read; nil without a successful reading.
    var valueRange: (low: Double, high: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for v in readings where !v.isNaN {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// How many reads failed.
    var failedCount: Int { faults.count }

    /// The last read attempt's time, in seconds (0 without any).
    var lastTime: Double { stamps.isEmpty ? 0 : time(stamps.count - 1) }

    /// The runs of successive failed reads, each up to the next successful reading.
    var failedRuns: [FailedRun] {
        var runs: [FailedRun] = []
        var current: FailedRun?
        for (i, v) in readings.enumerated() {
            let t = time(i)
            if v.isNaN {
                if current == nil {
                    current = FailedRun(start: t, last: t, count: 0, reason: faults[i] ?? "failed read")
                }
                current!.last = t
                current!.count += 1
            } else if var run = current {
                run.recovered = t
                runs.append(run)
                current = nil
            }
        }
        if let current { runs.append(current) }
        return runs
    }

    /// Successive successful readings as (time, value) runs; a failed read ends a run, so
    /// a line drawn through each run shows a gap where readings are missing.
    var connectedRuns: [[(time: Double, value: Double)]] {
        LineRuns.split(stamps.indices.lazy.map { (time: time($0), value: value($0)) })
    }

    /// Every read attempt in time order, with its exact time; nil for a failed read.
    var attempts: [(time: Timestamp, value: Double?)] {
        stamps.indices.map { (Timestamp(nanoseconds: stamps[$0]), value($0)) }
    }
}
