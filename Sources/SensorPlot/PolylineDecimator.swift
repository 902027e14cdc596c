/// Thins a line of many points to what a pixel grid can show, without changing the
/// picture: within each pixel column it keeps the first, lowest, highest and last point,
/// so spikes and the line's ends survive. A day of one-second samples in an 800-pixel
/// panel becomes at most 3 200 points instead of 86 400.
enum PolylineDecimator {
    /// The points (in pixels, x ascending) to draw; unchanged when they are few enough.
    static func decimate(_ points: [(x: Double, y: Double)], columnsWide width: Double) -> [(x: Double, y: Double)] {
        guard points.count > Int(max(1, width)) * 4 else { return points }
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(Int(width) * 4 + 4)
        var i = 0
        while i < points.count {
            let column = points[i].x.rounded(.down)
            var j = i, lo = i, hi = i
            while j < points.count, points[j].x.rounded(.down) == column {
                if points[j].y < points[lo].y { lo = j }
                if points[j].y > points[hi].y { hi = j }
                j += 1
            }
            // First, the extremes in time order, last; each once.
            var keep = [i, min(lo, hi), max(lo, hi), j - 1]
            keep = keep.enumerated().filter { n, k in n == 0 || k != keep[n - 1] }.map(\.element)
            for k in keep { out.append(points[k]) }
            i = j
        }
        return out
    }
}
