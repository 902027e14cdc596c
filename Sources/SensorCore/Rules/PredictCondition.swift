/// The parameters of a `predict` rule (SPEC §10): where the least-squares line through the
/// last `over` of samples is heading `within` from now, compared with a threshold.
public struct PredictCondition: Hashable, Sendable {
    /// Which side of the threshold the rule warns about.
    public enum Direction: String, Hashable, Sendable {
        /// True when the predicted value is above the threshold.
        case above
        /// True when the predicted value is below the threshold.
        case below
    }

    /// `above` or `below`.
    public var direction: Direction
    /// `T`: the value the prediction is compared with (events report it as `threshold`).
    public var threshold: Double
    /// The rule's `hysteresis` (≥ 0): once true, `above` stays true until the prediction is
    /// at or below `threshold - hysteresis` (`below` mirrors it).
    public var hysteresis: Double
    /// `H`: how far ahead of the sample the line is read (> 0).
    public var within: Duration
    /// `W`: the width of the fitted window `[t - W, t]`, both ends included (> 0).
    public var over: Duration

    /// A `predict` condition of the given fields; `hysteresis` is in the sensor's unit and `within` and `over` must be positive.
    public init(direction: Direction, threshold: Double, hysteresis: Double = 0, within: Duration, over: Duration) {
        self.direction = direction
        self.threshold = threshold
        self.hysteresis = hysteresis
        self.within = within
        self.over = over
    }

    /// The condition after a sample whose prediction is `predicted` (nil: no line), given
    /// whether it was true before.
    @inline(__always)
    public func isTrue(predicted: Double?, wasTrue: Bool) -> Bool {
        guard let p = predicted else { return false }
        switch direction {
        case .above: return wasTrue ? p > threshold - hysteresis : p > threshold
        case .below: return wasTrue ? p < threshold + hysteresis : p < threshold
        }
    }
}
