public import SensorRuntime

/// The ordinary-least-squares line through the samples of a sliding time window
/// `[t - W, t]`, read some way ahead of `t` (SPEC §10, `predict`).
///
/// A push and a prediction are O(1) amortised, however many samples the window holds: the
/// fit keeps running sums (`Σx`, `Σy`, `Σx²`, `Σxy`) that a sample adds to when it enters and
/// takes from when it leaves. Such sums lose precision in two ways, and both are bounded:
///
/// - Times are seconds relative to an `origin` (and values relative to `y0`), not to the
///   start of the run, so that `Σx² - (Σx)²/n` does not cancel away its digits after a year
///   of run time (10⁸ s squared is 10¹⁶: the whole of a `Double`).
/// - Every add and take rounds, and the errors of a long run would add up. So the sums are
///   rebuilt from the window's samples with a fresh origin (the newest sample) as soon as
///   the origin is more than `W` behind, and when the window was empty. Then every sample
///   in the window came after the last rebuild, so a rebuild adds up no more samples than
///   were pushed since the one before: O(1) per push amortised. Between rebuilds times stay
///   within `W` of the origin, and the sums carry the rounding of two windows' worth of
///   samples at most.
///
/// Memory: 16 bytes per sample in the window, and an eighth more as room to grow. Only
/// successful samples enter it (SPEC §10), with times that do not decrease.
public struct TrendWindow: Hashable, Sendable {
    private let width: Int64
    /// `H` in seconds, converted once: `Duration` arithmetic is 128-bit.
    private let horizon: Double
    /// The window's samples, oldest first.
    private var points = SampleRing()
    /// Times are `(time - origin)` in seconds, values `value - y0`, in the sums.
    private var origin: Int64 = 0
    private var y0 = 0.0
    private var sx = 0.0
    private var sy = 0.0
    private var sxx = 0.0
    private var sxy = 0.0

    /// - Parameters:
    ///   - width: `W`; a sample exactly `W` before the newest one is still inside.
    ///   - horizon: `H`: how far past the newest sample ``push(_:at:)`` reads the line.
    public init(width: Duration, horizon: Duration) {
        self.width = width.nanoseconds
        self.horizon = Double(horizon.nanoseconds) / 1e9
    }

    /// The number of samples in the window.
    public var count: Int { points.count }

    /// Adds a sample at `time` (not earlier than the previous one), drops the samples before
    /// `time - W` and returns the fitted line's value at `time + H`: nil when the window holds
    /// fewer than two distinct times (no line).
    @inline(__always)
    @discardableResult
    public mutating func push(_ value: Double, at time: Timestamp) -> Double? {
        let t = time.nanoseconds
        let oldest = t &- width
        while points.count > 0, points.first.time < oldest {
            let p = points.first
            points.removeFirst()
            // The same x and y as when it was added (the origin has not moved since), so the
            // sums lose exactly what it brought, up to rounding.
            let x = seconds(p.time &- origin)
            let y = p.value - y0
            sx -= x
            sy -= y
            sxx -= x * x
            sxy -= x * y
        }
        points.append(SampleRing.Sample(time: t, value: value))
        // The window was empty, or every sample in it came after the last rebuild.
        if points.count == 1 || t &- origin > width {
            rebuild()
        } else {
            let x = seconds(t &- origin)
            let y = value - y0
            sx += x
            sy += y
            sxx += x * x
            sxy += x * y
        }
        return line(ahead: horizon)
    }

    /// The fitted line's value `ahead` of the newest sample, as ``push(_:at:)`` returns it
    /// for `H`: nil when the window holds fewer than two distinct times (no line).
    public func predict(ahead: Duration) -> Double? {
        line(ahead: Double(ahead.nanoseconds) / 1e9)
    }

    @inline(__always)
    private func line(ahead: Double) -> Double? {
        guard points.count > 0 else { return nil }
        let newest = points.last
        guard points.first.time != newest.time else { return nil }
        let n = Double(points.count)
        // n times the centred sums Σ(x - x̄)² and Σ(x - x̄)(y - ȳ): the slope then needs one
        // division, which does not wait for the means' (a chain of two cost a tenth of a run).
        let dxx = n * sxx - sx * sx
        let dxy = n * sxy - sx * sy
        // Distinct times make dxx positive; only rounding in a pathological window (times a
        // few nanoseconds apart) could say otherwise, and then there is no usable line.
        guard dxx > 0 else { return nil }
        let mx = sx / n
        let my = sy / n
        let x = seconds(newest.time &- origin) + ahead
        return y0 + my + dxy / dxx * (x - mx)
    }

    /// Moves the origin to the newest sample and adds the window up afresh.
    private mutating func rebuild() {
        let newest = points.last
        origin = newest.time
        y0 = newest.value
        sx = 0
        sy = 0
        sxx = 0
        sxy = 0
        for i in 0..<points.count {
            let p = points[i]
            let x = seconds(p.time &- origin)
            let y = p.value - y0
            sx += x
            sy += y
            sxx += x * x
            sxy += x * y
        }
    }

    /// Nanoseconds as seconds (division, not `× 1e-9`: one rounding, so `0.1 s` is the
    /// `Double` nearest to 0.1).
    @inline(__always)
    private func seconds(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e9 }
}
