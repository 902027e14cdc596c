import Testing
@testable import SensorPlot

struct ValueTicksTests {
    @Test func coversTheRangeWithWholeSteps() {
        let ticks = ValueTicks(low: 53.1, high: 90, maxTicks: 6)
        #expect(ticks.step == 10)
        #expect(ticks.low == 50)
        #expect(ticks.high == 90)
        #expect(ticks.values.map(ticks.label) == ["50", "60", "70", "80", "90"])
    }

    @Test func pressuresTickInWholeHectopascals() {
        let ticks = ValueTicks(low: 1004.6, high: 1013.4, maxTicks: 6)
        #expect(ticks.step == 2)
        #expect(ticks.low == 1004)
        #expect(ticks.high == 1014)
    }

    @Test func smallStepsLabelWithTheirDecimalsAndNoMinusZero() {
        let ticks = ValueTicks(low: -0.27, high: 0.38, maxTicks: 7)
        #expect(ticks.step == 0.1)
        #expect(ticks.values.map(ticks.label) == ["-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2", "0.3", "0.4"])
    }

    @Test func aFlatLineGetsARangeAroundIt() {
        let ticks = ValueTicks(low: 20, high: 20, maxTicks: 4)
        #expect(ticks.low < 20)
        #expect(ticks.high > 20)
        #expect(ticks.values.count >= 2)
    }

    @Test func neverMoreIntervalsThanAsked() {
        for (lo, hi) in [(0.0, 1.0), (12.3, 987.6), (-40, 125), (1000, 1000.01), (0, 1e6)] {
            for n in 2...10 {
                let t = ValueTicks(low: lo, high: hi, maxTicks: n)
                #expect(t.values.count - 1 <= n)
                #expect(t.low <= lo && t.high >= hi)
            }
        }
    }

    @Test func fixedPrintsExactDecimals() {
        #expect(ValueTicks.fixed(2.5, decimals: 2) == "2.50")
        #expect(ValueTicks.fixed(-0.05, decimals: 2) == "-0.05")
        #expect(ValueTicks.fixed(0.30000000000000004, decimals: 1) == "0.3")
        #expect(ValueTicks.fixed(-0.01, decimals: 1) == "0.0")
        #expect(ValueTicks.fixed(1013, decimals: 0) == "1013")
    }
}
