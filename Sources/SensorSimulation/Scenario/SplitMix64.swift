/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast generator whose stream is fixed by
/// its seed on every machine and toolchain, unlike `SystemRandomNumberGenerator`.
///
/// Scenario noise uses it so the same scenario and seed always give the same values.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator whose whole stream is determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [−`magnitude`, `magnitude`] (the upper end only by rounding).
    public mutating func offset(upTo magnitude: Double) -> Double {
        // 53 random bits give every double in [0, 1) with equal spacing.
        let unit = Double(next() >> 11) * 0x1p-53
        return (unit * 2 - 1) * magnitude
    }
}
