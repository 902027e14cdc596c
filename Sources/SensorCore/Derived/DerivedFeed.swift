/// `simulate`'s side of derived sensors: feeds ``DerivedSensors`` with the scenarios'
/// polls and turns what it computes into poll cycles of the derived sensors.
///
/// Scenario polls are merged in time order, but a poll can deliver explicit samples from
/// before the last poll of another scenario. So a time is evaluated only once no scenario
/// can deliver a sample at or before it any more: every future sample of a scenario is
/// later than its latest poll, and the oldest of those polls is the watermark.
struct DerivedFeed {
    private var derived: DerivedSensors
    private let sensors: [SensorInfo]
    /// Each scenario's latest poll time (−1 ns before its first).
    private var lastPoll: [Timestamp]

    /// Nil when there are no derived sensors (nothing to do per poll).
    init?(_ configurations: [DerivedSensorConfiguration], feeds: [some SimulatedFeed]) {
        guard !configurations.isEmpty else { return nil }
        derived = DerivedSensors(configurations)
        for (i, feed) in feeds.enumerated() { derived.learn(source: Self.source(i), sensors: feed.sensors) }
        sensors = derived.sensors
        lastPoll = Array(repeating: Timestamp(nanoseconds: -1), count: feeds.count)
    }

    private static func source(_ feed: Int) -> String { "sim#\(feed)" }

    /// Notes the poll of scenario `feed` at `time` (its cycles, in order), and returns the
    /// derived cycles that are complete now, in time order.
    mutating func polled(
        _ feed: Int, at time: Timestamp, cycles: [PollCycle], feeds: [some SimulatedFeed]
    ) -> [PollCycle] {
        for cycle in cycles { derived.record(cycle) }
        lastPoll[feed] = time
        var watermark = Timestamp(nanoseconds: .max)
        for i in feeds.indices where !feeds[i].finished { watermark = min(watermark, lastPoll[i]) }
        let steps = derived.drain(through: watermark)
        return derived.cycles(of: steps, sensors: sensors)
    }
}

/// What ``DerivedFeed`` needs to know of a scenario being played.
protocol SimulatedFeed {
    /// The scenario's sensors.
    var sensors: [SensorInfo] { get }
    /// Whether the scenario has played its last poll.
    var finished: Bool { get }
}
