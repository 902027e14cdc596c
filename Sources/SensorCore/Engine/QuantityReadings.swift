/// The latest reading of every sensor of one quantity, as a Sendable snapshot.
///
/// Kept per source as the arrays the last poll produced, so committing a cycle is O(1) no
/// matter how many sensors it carries (1000 thermal zones every 100 ms must stay cheap);
/// per-sensor look-ups scan, which only displays and tests do.
public struct QuantityReadings: Sendable, Equatable {
    /// The last cycle of one source for this quantity.
    public struct SourceReadings: Sendable, Equatable {
        /// The source's sensors of this quantity.
        public var sensors: [SensorInfo]
        /// The cycle the readings came in, kept whole so a commit copies nothing.
        private var cycle: PollCycle

        init(sensors: [SensorInfo], samples: [Sample]) {
            self.sensors = sensors
            self.cycle = PollCycle(source: "", time: .zero, sensors: sensors, samples: samples)
        }

        init(_ cycle: PollCycle) {
            self.sensors = cycle.sensors
            self.cycle = cycle
        }

        /// Its latest read attempts (a sensor without one in the last poll keeps none here).
        public var samples: [Sample] { cycle.samples }

        public static func == (a: SourceReadings, b: SourceReadings) -> Bool {
            a.sensors == b.sensors && a.samples == b.samples
        }
    }

    /// Grows by one with every poll cycle committed for this quantity.
    public internal(set) var revision: UInt64 = 0
    /// The latest cycle of each source.
    public internal(set) var sources: [String: SourceReadings] = [:]

    public init() {}

    /// The latest read attempt of each sensor (a fault is kept as a fault, not a value).
    public var latest: [SensorID: Sample] {
        var out: [SensorID: Sample] = [:]
        for source in sources.values {
            for sample in source.samples { out[sample.sensor] = sample }
        }
        return out
    }

    /// Every sensor of this quantity, by id.
    public var sensors: [SensorID: SensorInfo] {
        var out: [SensorID: SensorInfo] = [:]
        for source in sources.values {
            for info in source.sensors { out[info.id] = info }
        }
        return out
    }

    /// The latest successful value of a sensor, nil if its last read failed or never came.
    public func value(of id: SensorID) -> Double? {
        for source in sources.values {
            if let sample = source.samples.last(where: { $0.sensor == id }) { return sample.value }
        }
        return nil
    }
}
