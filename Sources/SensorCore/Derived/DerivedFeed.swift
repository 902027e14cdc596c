/// `simulate`'s side of derived sensors: feeds ``DerivedSensors`` with the scenarios'
/// polls and turns what it computes into poll cycles of the derived sensors.
///
/// Scenario polls are merged in time order, but a poll can deliver explicit samples from
/// before the last poll of another scenario. So a time is evaluated only once no scenario
/// can deliver a sample at or before it any more: every future sample of a scenario is
/// later than its latest poll, and the oldest of those polls is the watermark.
struct DerivedFeed {
    private var derived: DerivedSensors
    /// Each scenario's latest poll time (−1 ns before its first).
    private var lastPoll: [Timestamp]

    /// Nil when there are no derived sensors (nothing to do per poll).
    init?(_ configurations: [DerivedSensorConfiguration], feeds: [some SimulatedFeed]) {
        guard !configurations.isEmpty else { return nil }
        derived = DerivedSensors(configurations)
        // All up front: a scenario that has not polled yet still holds its inputs (a tick of
        // another does not stand for its derived sensors).
        for feed in feeds { derived.learn(source: feed.list.source, sensors: feed.list.sensors) }
        lastPoll = Array(repeating: Timestamp(nanoseconds: -1), count: feeds.count)
    }

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
        return derived.cycles(of: steps)
    }
}

/// What ``DerivedFeed`` needs to know of a scenario being played.
protocol SimulatedFeed {
    /// The scenario's sensors, under the source key its cycles carry.
    var list: SensorList { get }
    /// Whether the scenario has played its last poll.
    var finished: Bool { get }
}
