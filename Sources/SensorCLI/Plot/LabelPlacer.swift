/// Places text labels in a panel so they do not overlap one another: each label tries its
/// candidate positions in order and takes the first free one inside the frame.
struct LabelPlacer {
    /// A label's box: left, top, right, bottom.
    struct Box: Equatable, Sendable {
        var left: Double, top: Double, right: Double, bottom: Double

        func overlaps(_ o: Box) -> Bool {
            left < o.right && o.left < right && top < o.bottom && o.top < bottom
        }
    }

    private let frame: PlotFrame
    private(set) var placed: [Box] = []

    /// A placer for labels inside `frame`.
    init(frame: PlotFrame) { self.frame = frame }

    /// Takes the first candidate (right edge, baseline: labels are drawn right-aligned, so
    /// an underestimated width never pushes one past the frame) where a `width` × `height`
    /// label fits inside the frame and overlaps no placed label; the first candidate that
    /// fits when none is free (a crowded panel still shows every label).
    mutating func place(width: Double, height: Double, candidates: [(right: Double, baseline: Double)]) -> (right: Double, baseline: Double) {
        func box(_ c: (right: Double, baseline: Double)) -> Box {
            Box(left: c.right - width - 2, top: c.baseline - height, right: c.right + 2, bottom: c.baseline + height * 0.25)
        }
        let inside = candidates.filter { c in
            let b = box(c)
            return b.left >= frame.x && b.right <= frame.right + 2 && b.top >= frame.y - 1 && b.bottom <= frame.bottom + 1
        }
        let chosen = inside.first { c in !placed.contains { $0.overlaps(box(c)) } } ?? inside.first ?? candidates[0]
        placed.append(box(chosen))
        return chosen
    }
}
