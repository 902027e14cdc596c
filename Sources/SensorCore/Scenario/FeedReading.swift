/// One reading of a ``FeedCursor``: its time, a value or a fault, and the latched alarms
/// seen at it (SPEC §16b).
///
/// A struct, not a tuple: an optional tuple holding a `String?` was moved and checked
/// through the runtime's generic tuple witnesses, a few percent of `simulate`
/// (bench/README.md, "Instructions behind the code's shortcuts").
public struct FeedReading: Sendable {
    /// The reading's time, shifted by the playback's offset.
    public var time: Timestamp
    /// The value; nil for a failed read or a dropout.
    public var value: Double?
    /// Why there is no value, when there is none.
    public var fault: String?
    /// The latched alarms seen at it.
    public var alarms: HardwareAlarms
}
