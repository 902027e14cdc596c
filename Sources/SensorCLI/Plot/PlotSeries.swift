import SensorCore

/// One sensor's read attempts over a simulation, in time order, for its panel.
struct PlotSeries: Sendable {
    /// The sensor.
    let info: SensorInfo
    /// Read attempts in time order; failed reads included.
    private(set) var samples: [Sample] = []

    init(info: SensorInfo, samples: [Sample] = []) {
        self.info = info
        self.samples = samples
    }

    /// Adds a read attempt (callers add them in time order).
    mutating func append(_ sample: Sample) { samples.append(sample) }

    /// The successful readings' values.
    var values: [Double] { samples.compactMap(\.value) }

    /// The last read attempt's time, in seconds (0 without any).
    var lastTime: Double { samples.last?.time.seconds ?? 0 }

    /// The runs of successive failed reads, each up to the next successful reading.
    var failedRuns: [FailedRun] {
        var runs: [FailedRun] = []
        var current: FailedRun?
        for sample in samples {
            let t = sample.time.seconds
            if sample.value == nil {
                if current == nil {
                    current = FailedRun(start: t, last: t, count: 0, reason: sample.fault ?? "failed read")
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
        LineRuns.split(samples.lazy.map { (time: $0.time.seconds, value: $0.value) })
    }
}
