public import SensorCore
import SensorRuntime
extension PollCycle {
    /// A cycle of `list` at `t` seconds: the given sensors read (a nil value is a failed read,
    /// `EIO`), every other listed sensor not read.
    public static func reading(
        _ list: SensorList, at t: Double, _ values: [(SensorInfo, Double?)], tick: Bool = true
    ) -> PollCycle {
        var readings = SensorValues(time: .seconds(t), unread: list.count)
        for (info, v) in values { readings.set(list.positions[info.id]!, value: v, fault: "EIO") }
        return PollCycle(list: list, readings: readings, tick: tick)
    }
}
