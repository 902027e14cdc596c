/// Places text labels in a panel so they overlap neither one another nor the drawn lines:
/// each label tries its candidate positions in order and takes the first that is inside
/// the frame and clear of both; failing that, the first clear of other labels (a line may
/// then run under it, its white halo keeps it legible); failing that, the first inside.
struct LabelPlacer {
    private let frame: PlotFrame
    /// Lines to keep clear of, in pixels (each a polyline).
    private let lines: [[(x: Double, y: Double)]]
    private(set) var placed: [LabelBox] = []

    /// A placer for labels inside `frame` that keeps clear of `lines` where it can.
    init(frame: PlotFrame, lines: [[(x: Double, y: Double)]] = []) {
        self.frame = frame
        self.lines = lines
    }

    /// Takes the best candidate (right edge, baseline: labels are drawn right-aligned, so
    /// an underestimated width never pushes one past the frame) for a `width` × `height`
    /// label, as the type's summary says; `extra` are more lines to keep clear of, for
    /// this label only.
    mutating func place(
        width: Double, height: Double, candidates: [(right: Double, baseline: Double)],
        avoiding extra: [[(x: Double, y: Double)]] = []
    ) -> (right: Double, baseline: Double) {
        func box(_ c: (right: Double, baseline: Double)) -> LabelBox {
            LabelBox(
                left: c.right - width - 2, top: c.baseline - height, right: c.right + 2,
                bottom: c.baseline + height * 0.25)
        }
        let inside = candidates.filter { c in
            let b = box(c)
            return b.left >= frame.x && b.right <= frame.right + 2 && b.top >= frame.y - 1
                && b.bottom <= frame.bottom + 1
        }
        let apart = inside.filter { c in !placed.contains { $0.overlaps(box(c)) } }
        let chosen =
            apart.first { !crosses(box($0), lines) && !crosses(box($0), extra) } ?? apart.first ?? inside.first
            ?? candidates[0]
        placed.append(box(chosen))
        return chosen
    }

    private func crosses(_ b: LabelBox, _ lines: [[(x: Double, y: Double)]]) -> Bool {
        for line in lines {
            if line.count == 1, b.contains(line[0]) { return true }
            for k in line.indices.dropFirst() {
                let p = line[k - 1], q = line[k]
                // Cheap rejection first: both ends on one side of the box.
                if max(p.x, q.x) < b.left || min(p.x, q.x) > b.right || max(p.y, q.y) < b.top
                    || min(p.y, q.y) > b.bottom
                {
                    continue
                }
                if b.meets(p, q) { return true }
            }
        }
        return false
    }
}
