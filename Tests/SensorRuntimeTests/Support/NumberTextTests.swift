@testable import SensorRuntime
import Testing

/// The one way numbers and durations become text: integers without `.0`, rounding to a
/// number of decimals, the pointed form of an event's time, durations in a configuration's units.
struct NumberTextTests {
    @Test(arguments: [
        (80.0, "80"), (81.5, "81.5"), (-0.25, "-0.25"), (0, "0"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
        (Double.nan, "null"),
        (Double.infinity, "null"),
    ])
    func writesIntegersWithoutAPoint(value: Double, text: String) {
        #expect(NumberText.number(value) == text)
    }

    @Test(arguments: [
        (12.04, 1, "12"), (12.05, 1, "12.1"), (-3.25, 1, "-3.3"), (86.11947304015845, 3, "86.119"), (1.005, 2, "1"),
        (55.149, 1, "55.1"), (1234.5, 0, "1235"), (0.1 + 0.2, 3, "0.3"), (Double.infinity, 2, "null"),
    ])
    func roundsToAtMostTheDecimalsAsked(value: Double, places: Int, text: String) {
        #expect(NumberText.decimals(value, places: places) == text)
    }

    @Test func displayIsThreeDecimals() {
        #expect(NumberText.display(86.11947304015845) == NumberText.decimals(86.11947304015845, places: 3))
        #expect(NumberText.display(45) == "45")
    }

    @Test func roundedKeepsAValueThatIsNotFinite() {
        #expect(NumberText.rounded(13.2000004, places: 6) == 13.2)
        #expect(NumberText.rounded(.infinity, places: 3) == .infinity)
        #expect(NumberText.rounded(.nan, places: 3).isNaN)
    }

    @Test(arguments: [(12.0, "12.0"), (0, "0.0"), (0.1, "0.1"), (3.000000001, "3.000000001"), (0.012, "0.012")])
    func pointedKeepsTheDecimalPointOfAWholeNumber(value: Double, text: String) {
        #expect(NumberText.pointed(value) == text)
    }

    @Test(arguments: [
        (0.25, "250ms"), (0.0015, "1.5ms"), (1.5, "1.5s"), (90.5, "90.5s"), (0, "0s"), (30, "30s"), (300, "5m"),
        (5400, "1h30m"), (3661, "1h1m1s"), (90000, "25h"), (-5, "-5s"),
    ])
    func writesDurationsInAConfigurationsUnits(seconds: Double, text: String) {
        #expect(NumberText.duration(seconds: seconds) == text)
    }

    @Test(arguments: [1.0, 59, 60, 61, 3599, 3600, 7322, 86400])
    func aWholeNumberOfSecondsIsWrittenAsTheParserReadsIt(seconds: Double) throws {
        let text = NumberText.duration(seconds: seconds)
        #expect(try DurationParser.parse(text) == .seconds(Int64(seconds)))
        #expect(text == DurationParser.format(.seconds(Int64(seconds))))
    }
}
