public import SensorCore
import Synchronization

/// The asserted states of every BMC's discrete sensors at their last poll, which the readers
/// post and an alert's message reads (SPEC §23: `alarm: true` fires "with the state's
/// text"). One per daemon, injected into its readers and its sink.
public final class IPMIStateBoard: Sendable {
    private let states = Mutex<[SensorID: [IPMIStateMeaning]]>([:])

    /// An empty board.
    public init() {}

    /// Posts the states of `sensors` (a BMC's, after a poll).
    package func post(_ sensors: [SensorID: [IPMIStateMeaning]]) {
        states.withLock { all in all.merge(sensors) { _, new in new } }
    }

    /// The words of the warning and critical states of `sensor` asserted now
    /// (`Power Supply Failure detected`); nil when none is.
    public func alarmWords(of sensor: SensorID) -> String? {
        let words = states.withLock { $0[sensor] ?? [] }.filter(\.isAlarm).map(\.text)
        return words.isEmpty ? nil : words.joined(separator: ", ")
    }
}
