import SensorTerminal
import Testing

@Suite struct ScreenRendererTests {
    private let size = TerminalSize(rows: 24, columns: 80)

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theFirstFrameIsAFullRepaint() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        grid.put("hello", row: 0, column: 0)
        let bytes = text(renderer.frame(grid))
        #expect(bytes.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(bytes.contains("hello"))
        #expect(renderer.repaints == 1)
    }

    @Test func anUnchangedFrameWritesNothing() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        grid.put("55.0 °C", row: 3, column: 10)
        _ = renderer.frame(grid)
        #expect(renderer.frame(grid).isEmpty)
        #expect(renderer.repaints == 1)
    }

    @Test func aChangedValueRewritesOnlyTheCellsThatDiffer() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        for row in 0..<24 { grid.put(String(repeating: "x", count: 80), row: row, column: 0) }
        grid.put("55.0 °C", row: 5, column: 40)
        _ = renderer.frame(grid)
        grid.put("56.0 °C", row: 5, column: 40)
        let bytes = renderer.frame(grid)
        // A cursor move to row 6, column 42, and the one digit.
        #expect(text(bytes) == "\u{1B}[6;42H6")
        #expect(renderer.repaints == 1)
    }

    @Test func aStyleIsSetOnlyWhereItChanges() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        _ = renderer.frame(grid)
        grid.put("FIRING hot", row: 2, column: 0, style: CellStyle(colour: .red, bold: true))
        let bytes = text(renderer.frame(grid))
        #expect(bytes == "\u{1B}[3;1H\u{1B}[0;1;31mFIRING hot")
    }

    @Test func withoutColourTheAttributesStayAndTheColourGoes() {
        var renderer = ScreenRenderer(colour: false)
        var grid = ScreenGrid(size: size)
        _ = renderer.frame(grid)
        grid.put("FIRING", row: 0, column: 0, style: CellStyle(colour: .red, bold: true))
        let bytes = text(renderer.frame(grid))
        #expect(bytes.contains("\u{1B}[0;1m"))
        #expect(!bytes.contains("31"))
    }

    @Test func aResizeOrARequestRepaintsInFull() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        grid.put("a", row: 0, column: 0)
        _ = renderer.frame(grid)
        #expect(text(renderer.frame(grid, repaint: true)).contains("\u{1B}[2J"))
        var bigger = ScreenGrid(size: TerminalSize(rows: 40, columns: 120))
        bigger.put("a", row: 0, column: 0)
        #expect(text(renderer.frame(bigger)).contains("\u{1B}[2J"))
        #expect(renderer.repaints == 3)
    }

    @Test func aWideCharacterIsWrittenOnceForItsTwoCells() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        _ = renderer.frame(grid)
        grid.put("温度x", row: 1, column: 0)
        let bytes = text(renderer.frame(grid))
        #expect(bytes == "\u{1B}[2;1H温度x")
        #expect(grid[1, 4].text == "x")
    }

    @Test func consecutiveChangesNeedNoSecondCursorMove() {
        var renderer = ScreenRenderer(colour: true)
        var grid = ScreenGrid(size: size)
        _ = renderer.frame(grid)
        grid.put("ab", row: 0, column: 0)
        grid.put("c", row: 0, column: 5)
        #expect(text(renderer.frame(grid)) == "\u{1B}[1;1Hab\u{1B}[1;6Hc")
    }
}
