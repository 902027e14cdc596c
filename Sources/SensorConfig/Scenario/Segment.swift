/// One piece of a generated sensor's curve (SPEC §9).
public enum Segment: Sendable, Hashable {
    /// Linear from the current value to `to` over the duration; the end value is `to`.
    case ramp(to: Double, over: Duration)
    /// Keep the current value.
    case hold(Duration)
    /// Jump to a value, taking no time.
    case step(to: Double)
    /// current + amplitude·sin(2π·(t−t_seg)/period) for `over`, then back to current.
    case sine(amplitude: Double, period: Duration, over: Duration)
    /// Failed reads for the duration, then the current value resumes.
    case dropout(Duration)
}
