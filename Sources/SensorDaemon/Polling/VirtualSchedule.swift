import SensorConfig
import SensorRuntime

/// When a scenario source polls in virtual time (``SourceSupervisor/play()``): at every
/// `step` from 0 to `duration`, both included, each a tick; and once more at `duration`
/// when it is off a step, without a tick (explicit samples and CSV rows keep their own
/// times and may lie there). SPEC §9.
struct VirtualSchedule {
    private let step: Int64
    private let end: Int64
    /// The next poll's time; nil once the scenario has reached its `duration`.
    private(set) var next: Timestamp?

    init(_ scenario: Scenario?) {
        step = max(1, scenario?.step.nanoseconds ?? 1_000_000_000)
        end = max(0, scenario?.duration.nanoseconds ?? 0)
        next = .zero
    }

    /// The poll due now and whether it is a tick; moves on to the next one.
    private mutating func advance() -> (Timestamp, tick: Bool) {
        let now = next!
        let following = (now.nanoseconds / step + 1) * step
        next = now.nanoseconds >= end ? nil : Timestamp(nanoseconds: min(following, end))
        return (now, now.nanoseconds % step == 0)
    }

    /// The poll due now and those after it that come before `limit` (every other source's
    /// next poll), `count` at most, taken as one: the first's time, the last's, and the
    /// ticks among them.
    mutating func advance(
        upTo count: Int, before limit: Timestamp?
    ) -> (first: Timestamp, last: Timestamp, ticks: [Timestamp]) {
        var ticks: [Timestamp] = []
        let (first, tick) = advance()
        if tick { ticks.append(first) }
        var last = first
        var taken = 1
        while taken < count, let t = next, limit.map({ t < $0 }) ?? true {
            let (time, tick) = advance()
            if tick { ticks.append(time) }
            last = time
            taken += 1
        }
        return (first, last, ticks)
    }
}
