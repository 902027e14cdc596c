import Testing
@testable import SensorPlot

struct TimeTicksTests {
    @Test func tenSecondsTickInSeconds() {
        let ticks = TimeTicks(span: 10, maxTicks: 8)
        #expect(ticks.step == 2)
        #expect(ticks.unit == .second)
        #expect(ticks.values == [0, 2, 4, 6, 8, 10])
        #expect(ticks.values.map(ticks.label) == ["0", "2 s", "4 s", "6 s", "8 s", "10 s"])
    }

    @Test func fiveMinutesTickInWholeMinutes() {
        let ticks = TimeTicks(span: 300, maxTicks: 8)
        #expect(ticks.step == 60)
        #expect(ticks.unit == .minute)
        #expect(ticks.values.map(ticks.label) == ["0", "1 min", "2 min", "3 min", "4 min", "5 min"])
    }

    @Test func fiveMinutesWithRoomForMoreTicksInHalfMinutes() {
        let ticks = TimeTicks(span: 300, maxTicks: 12)
        #expect(ticks.step == 30)
        #expect(ticks.unit == .second)
        #expect(ticks.label(90) == "1 min 30 s")
    }

    @Test func threeHoursTickEveryHalfHourWithHoursAndMinutes() {
        let ticks = TimeTicks(span: 3 * 3600, maxTicks: 8)
        #expect(ticks.step == 1800)
        #expect(ticks.unit == .minute)
        #expect(ticks.values.count == 7)
        #expect(ticks.label(3600) == "1 h")
        #expect(ticks.label(5400) == "1 h 30 min")
        #expect(ticks.label(1800) == "30 min")
    }

    @Test func twoDaysTickEverySixHours() {
        let ticks = TimeTicks(span: 2 * 86400, maxTicks: 8)
        #expect(ticks.step == 6 * 3600)
        #expect(ticks.unit == .hour)
        #expect(ticks.values.count == 9)
        #expect(ticks.label(86400) == "1 d")
        #expect(ticks.label(86400 + 6 * 3600) == "1 d 6 h")
    }

    @Test func stepsComeFromTheNiceList() {
        // 1, 2, 5, 10, 15, 30 s; 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h; days.
        for span in stride(from: 1.0, through: 400_000, by: 997) {
            let ticks = TimeTicks(span: span, maxTicks: 9)
            #expect(TimeTicks.steps.contains(ticks.step))
            #expect(span / ticks.step <= 9)
        }
        #expect(TimeTicks(span: 7200, maxTicks: 6).step == 1800)
        #expect(TimeTicks(span: 7200, maxTicks: 10).step == 900)
        #expect(TimeTicks(span: 7200, maxTicks: 13).step == 600)
    }

    @Test func subSecondSpansTickInDecimalSeconds() {
        let ticks = TimeTicks(span: 0.5, maxTicks: 5)
        #expect(ticks.step == 0.1)
        #expect(ticks.label(0.3) == "0.3 s")
        #expect(ticks.values.count == 6)
    }

    @Test func spansBeyondAWeekTickInWeeksOfDays() {
        let ticks = TimeTicks(span: 365 * 86400, maxTicks: 10)
        #expect(ticks.unit == .day)
        #expect(ticks.step.truncatingRemainder(dividingBy: 604_800) == 0)
        #expect(365 * 86400 / ticks.step <= 10)
        #expect(ticks.label(ticks.step) == "\(Int(ticks.step / 86400)) d")
    }

    @Test func aZeroSpanStillGivesAnAxis() {
        let ticks = TimeTicks(span: 0, maxTicks: 8)
        #expect(ticks.values.first == 0)
        #expect(ticks.values.count >= 2)
    }
}
