/// The rectangle a panel draws its data in, and the mapping of time and value into it.
struct PlotFrame: Equatable, Sendable {
    /// The left and top edges, in document pixels.
    var x: Double, y: Double
    /// The size, in pixels.
    var width: Double, height: Double
    /// The time at the right edge, in seconds (the left edge is 0).
    var timeSpan: Double = 1
    /// The values at the bottom and top edges.
    var low: Double = 0, high: Double = 1

    /// The right and bottom edges.
    var right: Double { x + width }
    var bottom: Double { y + height }

    /// The horizontal position of a time in seconds.
    func x(_ t: Double) -> Double { x + t / max(timeSpan, 1e-9) * width }

    /// The vertical position of a value (higher values higher up).
    func y(_ v: Double) -> Double { bottom - (v - low) / max(high - low, 1e-12) * height }

    /// A vertical position kept inside the frame (for marks whose value is off the scale).
    func clampedY(_ v: Double) -> Double { min(bottom, max(y, y(v))) }
}
