/// The temperatures a source's readings may take (SPEC §16): a reading outside is a failed
/// read (`implausible value`), as a phantom 3.9 million °C must never page anyone.
///
/// Below absolute zero is a fault whatever this says (SPEC §4).
public struct PlausibleRange: Sendable, Hashable {
    /// The lowest plausible temperature, °C (`-infinity`: absolute zero alone bounds it).
    public var min: Double
    /// The highest plausible temperature, °C.
    public var max: Double

    /// A range; `min` must not exceed `max`.
    public init(min: Double = -.infinity, max: Double = PlausibleRange.standard.max) {
        self.min = min
        self.max = max
    }

    /// Without a source's `plausible`: at most 2000 °C.
    public static let standard = PlausibleRange(min: -.infinity, max: 2000)

    /// Whether `value` (°C) is plausible.
    public func admits(_ value: Double) -> Bool { value >= min && value <= max }
}
