import Testing
@testable import SensorPlot

struct PlotLayoutTests {
    @Test func aFewSensorsGetOneColumnOfTallPanels() {
        let layout = PlotLayout(count: 4, top: 100)
        #expect(layout.columns == 1)
        #expect(!layout.isCompact)
        #expect(layout.plotHeight >= 140)
    }

    @Test func manySensorsGetACompactGrid() {
        let ten = PlotLayout(count: 10, top: 100)
        #expect(ten.columns == 2)
        let fifty = PlotLayout(count: 50, top: 100)
        #expect(fifty.columns == 3)
        #expect(fifty.rows == 17)
        #expect(fifty.isCompact)
        #expect(fifty.plotHeight < ten.plotHeight)
        // Still a page one scrolls: every panel at least 80 px high, the whole under 3000 px.
        #expect(fifty.plotHeight >= 80)
        #expect(fifty.height < 3000)
    }

    @Test func panelsDoNotOverlapAndStayOnThePage() {
        for count in [1, 3, 6, 7, 18, 19, 50] {
            let layout = PlotLayout(count: count, top: 80)
            let frames = (0..<count).map(layout.frame)
            for (n, f) in frames.enumerated() {
                #expect(f.x >= 0 && f.right <= layout.width)
                #expect(f.y >= layout.top && f.bottom <= layout.height)
                for g in frames[(n + 1)...] {
                    let apart = f.right <= g.x || g.right <= f.x || f.bottom <= g.y || g.bottom <= f.y
                    #expect(apart, "panels overlap in a layout of \(count)")
                }
            }
        }
    }

    @Test func panelsGoRowByRow() {
        let layout = PlotLayout(count: 7, top: 0)
        #expect(layout.frame(0).y == layout.frame(1).y)
        #expect(layout.frame(0).x < layout.frame(1).x)
        #expect(layout.frame(2).y > layout.frame(0).y)
    }

    @Test func frameMapsTimeAndValueIntoItself() {
        let f = PlotFrame(x: 10, y: 20, width: 100, height: 50, timeSpan: 60, low: 0, high: 10)
        #expect(f.x(0) == 10)
        #expect(f.x(60) == 110)
        #expect(f.y(0) == 70)
        #expect(f.y(10) == 20)
        #expect(f.clampedY(99) == 20)
    }

    @Test func labelsTakeTheFirstFreePlace() {
        let f = PlotFrame(x: 0, y: 0, width: 200, height: 100)
        var placer = LabelPlacer(frame: f)
        let candidates: [(right: Double, baseline: Double)] = [(190, 50), (190, 70), (100, 50)]
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (190, 50))
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (190, 70))
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (100, 50))
        // Nothing free: the first place that fits, so the label still shows.
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (190, 50))
        // A place outside the frame is never taken.
        #expect(placer.place(width: 60, height: 10, candidates: [(40, 30), (190, 90)]) == (190, 90))
    }

    @Test func labelsKeepClearOfLinesWhereTheyCan() {
        let f = PlotFrame(x: 0, y: 0, width: 200, height: 100)
        // A diagonal line through the first place, a flat one through the second.
        var placer = LabelPlacer(frame: f, lines: [[(0, 100), (200, 0)], [(0, 66), (200, 66)]])
        let candidates: [(right: Double, baseline: Double)] = [(190, 20), (190, 70), (190, 95)]
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (190, 95))
        // Both clear places taken or crossed: the first not overlapping another label.
        #expect(placer.place(width: 60, height: 10, candidates: candidates) == (190, 20))
    }

    @Test func legendWrapsRulesOntoRowsOfItsWidth() {
        let rules = (0..<12).map { LegendItem.rule(name: "rule-\($0)", summary: "above 80 · warning", color: "#000") }
        let legend = PlotLegend(keys: [.value, .failed], rules: rules, width: 600, fontSize: 11)
        #expect(legend.placed.first { $0.item == rules[0] }!.row == 1)
        #expect(legend.height > 3 * legend.rowHeight)
        for p in legend.placed {
            #expect(p.x + TextMetrics.width(p.item.text, fontSize: 11) <= 600)
        }
    }

    @Test func longLabelsAreShortenedToTheirRoom() {
        #expect(PlotPanel.shortened("Rack 12 inlet", toFit: 500, fontSize: 10) == "Rack 12 inlet")
        let cut = PlotPanel.shortened(String(repeating: "long label ", count: 20), toFit: 100, fontSize: 10)
        #expect(cut.hasSuffix("…"))
        #expect(TextMetrics.width(cut, fontSize: 10) <= 100)
        #expect(PlotPanel.shortened("anything", toFit: 2, fontSize: 10) == "")
    }

    @Test func idsSortTheWayPeopleCount() {
        let ids = ["sim:rack10", "sim:rack2", "sim:rack1", "sim:baro", "sim:rack02b", "sim:rack20"]
        #expect(
            ids.sorted(by: NaturalOrder.less) == [
                "sim:baro", "sim:rack1", "sim:rack2", "sim:rack02b", "sim:rack10", "sim:rack20",
            ])
    }

    @Test func decimatingKeepsEndsAndExtremesPerPixelColumn() {
        var points: [(x: Double, y: Double)] = []
        for i in 0..<10_000 { points.append((Double(i) / 100, Double(i % 7))) }
        points[5_000].y = -50
        let thin = PolylineDecimator.decimate(points, columnsWide: 100)
        #expect(thin.count <= 400)
        #expect(thin.first! == points.first!)
        #expect(thin.last! == points.last!)
        #expect(thin.contains { $0.y == -50 })
        #expect(thin.contains { $0.y == 6 })
        #expect(PolylineDecimator.decimate(Array(points.prefix(300)), columnsWide: 100).count == 300)
    }
}
