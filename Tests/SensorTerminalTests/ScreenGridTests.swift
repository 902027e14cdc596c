import SensorTerminal
import Testing

@Suite struct ScreenGridTests {
    private let size = TerminalSize(rows: 3, columns: 10)

    @Test func hostileTextIsEscapedNeverAControl() {
        var grid = ScreenGrid(size: TerminalSize(rows: 1, columns: 40))
        grid.put("evil\u{1B}[2J\u{07}\n", row: 0, column: 0)
        #expect(grid.line(0).hasPrefix(#"evil\x1b[2J\x07\n"#))
        #expect(!grid.cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 } })
    }

    @Test func textIsCutAtTheEdgeNotWrapped() {
        var grid = ScreenGrid(size: size)
        let end = grid.put("0123456789ABC", row: 0, column: 2)
        #expect(end == 10)
        #expect(grid.line(0) == "  01234567")
        #expect(grid.line(1) == "          ")
    }

    @Test func aWidthLimitsWhatIsWritten() {
        var grid = ScreenGrid(size: size)
        grid.put("abcdef", row: 0, column: 0, width: 3)
        #expect(grid.line(0) == "abc       ")
    }

    @Test func aWideCharacterTakesTwoCellsAndIsNotSplitAtTheLimit() {
        var grid = ScreenGrid(size: size)
        grid.put("a温", row: 0, column: 0, width: 2)
        #expect(grid[0, 0].text == "a")
        #expect(grid[0, 1].text == " ")
        grid.put("温", row: 1, column: 0)
        #expect(grid[1, 0].text == "温")
        #expect(grid[1, 1].isContinuation)
    }

    @Test func aCombiningMarkJoinsTheCellBeforeIt() {
        var grid = ScreenGrid(size: size)
        let end = grid.put("e\u{301}x", row: 0, column: 0)
        #expect(end == 2)
        #expect(grid[0, 0].text == "e\u{301}")
        #expect(grid[0, 1].text == "x")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = ScreenGrid(size: size)
        grid.put("温", row: 0, column: 0)
        grid.put("x", row: 0, column: 1)
        #expect(grid[0, 0] == .blank)
        #expect(grid[0, 1].text == "x")
    }
}
