public import SensorRuntime

/// One instant of one source: its readings aligned with its sensor list, committed to
/// `SensorData` as one mutation and evaluated by the rule engine as one step.
///
/// The engine evaluates every slot that holds a reading, in list order, then, when `tick`
/// is set, checks the `stale` rules of every listed sensor at `time` (SPEC §6: at one
/// instant samples come before stale ticks). A poll that stands for several instants (a
/// scenario poller that fell behind) is several cycles, in time order.
public struct PollCycle: Sendable, Hashable {
    /// The source's sensors as last discovered; `readings` follow its order.
    public var list: SensorList
    /// One slot per listed sensor, at `readings.time`.
    public var readings: SensorValues
    /// Whether this cycle is a tick of the source's interval (stale rules are checked).
    public var tick: Bool

    /// A cycle of `readings` aligned with `list`.
    public init(list: SensorList, readings: SensorValues, tick: Bool = true) {
        precondition(readings.count == list.count, "readings must align with the sensor list")
        self.list = list
        self.readings = readings
        self.tick = tick
    }

    /// The cycles of one poll of `list`: one per instant read (readings that do not align
    /// with the list are dropped), in order, and the tick at `tick` when given — carried by
    /// the readings at that very time, else by a cycle of its own after them.
    public static func cycles(of list: SensorList, _ instants: [SensorValues], tick: Timestamp?) -> [PollCycle] {
        cycles(of: list, instants, ticks: tick.map { [$0] } ?? [])
    }

    /// The same for polls taken as one (``SourcePoller/pollNow(from:through:ticks:)``): each
    /// tick after the readings up to its time, carried by the readings at that very time.
    /// `ticks` in time order.
    public static func cycles(of list: SensorList, _ instants: [SensorValues], ticks: [Timestamp]) -> [PollCycle] {
        var out: [PollCycle] = []
        out.reserveCapacity(instants.count + ticks.count)
        var i = instants.startIndex
        func take(through time: Timestamp) {
            while i < instants.endIndex, instants[i].time <= time {
                if instants[i].count == list.count {
                    out.append(PollCycle(list: list, readings: instants[i], tick: false))
                }
                i += 1
            }
        }
        for tick in ticks {
            take(through: tick)
            if let last = out.last, last.time == tick {
                out[out.count - 1].tick = true
            } else {
                out.append(PollCycle(list: list, readings: SensorValues(time: tick, unread: list.count)))
            }
        }
        take(through: Timestamp(nanoseconds: .max))
        return out
    }

    /// The running source the cycle came from.
    public var source: String { list.source }
    /// The instant of the readings.
    public var time: Timestamp { readings.time }
    /// The listed sensors.
    public var sensors: [SensorInfo] { list.sensors }

    /// The read attempts of this cycle as samples, in list order (a derived view for
    /// display and tests; the engine reads ``readings`` directly).
    public var samples: [Sample] { readings.samples(of: list.sensors) }

    /// Same list (by identity), same readings, same tick.
    public static func == (a: PollCycle, b: PollCycle) -> Bool {
        a.list === b.list && a.readings == b.readings && a.tick == b.tick
    }

    /// Hashes the list's identity, the readings and the tick, in step with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(list))
        hasher.combine(readings)
        hasher.combine(tick)
    }
}
