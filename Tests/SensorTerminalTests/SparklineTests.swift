import SensorTerminal
import Testing

@Suite struct SparklineTests {
    @Test func valuesSpanTheEightBlocksFromLowToHigh() {
        let line = Sparkline.line([0, 1, 2, 3, 4, 5, 6, 7], low: 0, high: 7, utf8: true)
        #expect(line == "▁▂▃▄▅▆▇█")
    }

    @Test func asciiWhereTheLocaleIsNotUTF8() {
        let line = Sparkline.line([0, 7, nil, 3.5], low: 0, high: 7, utf8: false)
        #expect(line == "_# ~" || line == "_# =")
        #expect(line.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func aSlotWithoutSamplesIsASpaceAndAFlatLineTheLowest() {
        #expect(Sparkline.line([nil, 5, 5], low: 5, high: 5, utf8: true) == " ▁▁")
    }
}
