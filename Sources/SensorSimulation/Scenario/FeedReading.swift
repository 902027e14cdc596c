public import SensorRuntime
public import SensorCore

/// One reading of a ``FeedCursor``: its time, a value or a fault, and the latched alarms
/// seen at it (SPEC §16b).
///
/// A struct, not a tuple, and its fault a case, not a text: an optional tuple holding a
/// `String?` was moved and checked through the runtime's generic tuple witnesses, and a
/// `String?` field needed an outlined destroy at every sample (bench/README.md,
/// "Instructions behind the code's shortcuts").
public struct FeedReading: Sendable {
    /// The reading's time, shifted by the playback's offset.
    public var time: Timestamp
    /// The value; nil for a failed read or a dropout.
    public var value: Double?
    /// Why there is no value, when there is none.
    public var fault: Fault?
    /// The latched alarms seen at it.
    public var alarms: HardwareAlarms

    /// Why a reading of a scenario has no value.
    public enum Fault: Sendable {
        /// An explicit `null` sample.
        case failedRead
        /// A generated sample inside a `dropout`.
        case dropout

        /// The fault's text, as samples and events carry it.
        public var text: String {
            switch self {
            case .failedRead: FeedCursor.failedReadFault
            case .dropout: FeedCursor.dropoutFault
            }
        }
    }
}
