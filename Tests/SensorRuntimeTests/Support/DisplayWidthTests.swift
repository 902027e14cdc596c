import SensorRuntime
import Testing

/// Text measured in terminal cells, as a terminal draws it.
@Suite struct DisplayWidthTests {
    @Test func asciiAndLatinTakeOneCellEach() {
        #expect(DisplayWidth.cells("Package id 0") == 12)
        #expect(DisplayWidth.cells("°C µW é") == 7)
    }

    @Test func cjkAndFullwidthTakeTwoCells() {
        #expect(DisplayWidth.cells("温度") == 4)
        #expect(DisplayWidth.cells("ＣＰＵ") == 6)
        #expect(DisplayWidth.cells("센서1") == 5)
    }

    @Test func combiningMarksAndZeroWidthTakeNone() {
        #expect(DisplayWidth.cells("e\u{301}") == 1)
        #expect(DisplayWidth.cells("a\u{200B}b") == 2)
    }

    @Test func emojiTakeTwoCells() {
        #expect(DisplayWidth.cells("🔥") == 2)
    }

    @Test func paddingCountsCellsNotCharacters() {
        #expect(DisplayWidth.padded("温度", to: 6) == "温度  ")
        #expect(DisplayWidth.padded("abcdef", to: 3) == "abcdef")
    }

    @Test func aPrefixNeverSplitsAWideCharacterPastTheWidth() {
        #expect(DisplayWidth.prefix("温度計", fitting: 5) == "温度")
        #expect(DisplayWidth.prefix("abc", fitting: 5) == "abc")
    }
}
