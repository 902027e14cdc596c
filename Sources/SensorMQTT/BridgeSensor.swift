public import SensorCore

/// One sensor as the bridge publishes it: its description and latest value (nil while it has
/// none: not read yet, failed, asleep).
public struct BridgeSensor: Sendable, Hashable {
    /// Id, label and quantity.
    public var info: SensorInfo
    /// The latest value in the quantity's unit.
    public var value: Double?

    /// A sensor with these parts.
    public init(info: SensorInfo, value: Double?) {
        self.info = info
        self.value = value
    }
}
