/// The box a label takes in a panel, in pixels: left, top, right, bottom.
struct LabelBox: Equatable, Sendable {
    var left: Double, top: Double, right: Double, bottom: Double

    func overlaps(_ o: LabelBox) -> Bool {
        left < o.right && o.left < right && top < o.bottom && o.top < bottom
    }

    func contains(_ p: (x: Double, y: Double)) -> Bool {
        left <= p.x && p.x <= right && top <= p.y && p.y <= bottom
    }

    /// Whether the segment from `a` to `b` passes through the box (Liang–Barsky clip).
    func meets(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - left), (dx, right - a.x), (-dy, a.y - top), (dy, bottom - a.y)] {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return false }
            }
        }
        return true
    }
}
