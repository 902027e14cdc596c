import SensorRuntime
import Testing

/// The time of day in microseconds, and the seconds and texts it turns into.
@Suite struct WallTimeTests {
    @Test func secondsAndMicrosecondsConvertBothWays() {
        let time = WallTime(microseconds: 1_764_626_466_250_000)
        #expect(time.seconds == 1_764_626_466.25)
        #expect(WallTime(seconds: 1_764_626_466.25) == time)
        #expect(WallTime(seconds: 1_800_000_000).microseconds == 1_800_000_000_000_000)
        #expect(WallTime(seconds: 0.000_001).microseconds == 1)
    }

    @Test func secondsAreExactToTheMicrosecondForTodaysTimes() {
        let time = WallTime(microseconds: 1_764_626_466_123_456)
        #expect(WallTime(seconds: time.seconds) == time)
    }

    @Test func aTimeBeforeTheEpochIsTheEpoch() {
        #expect(WallTime(seconds: -1) == .epoch)
        #expect(WallTime(microseconds: 5).advanced(by: .seconds(-1)) == .epoch)
    }

    @Test func advancingMovesByWholeMicroseconds() {
        let time = WallTime(microseconds: 1_000_000)
        #expect(time.advanced(by: .seconds(60)).microseconds == 61_000_000)
        #expect(time.advanced(by: .milliseconds(-250)).microseconds == 750_000)
        #expect(time.advanced(by: .nanoseconds(1_999)).microseconds == 1_000_001)
    }

    @Test func laterTimesOrderAfterEarlierOnes() {
        #expect(WallTime(microseconds: 1) < WallTime(microseconds: 2))
        #expect(!(WallTime(microseconds: 2) < WallTime(microseconds: 2)))
    }

    @Test func theTextIsTheNotifiersRFC3339ToTheMicrosecond() {
        #expect("\(WallTime(microseconds: 1_764_626_466_250_000))" == "2025-12-01T22:01:06.250000Z")
        #expect("\(WallTime(microseconds: 1_764_626_466_000_000))" == "2025-12-01T22:01:06Z")
        #expect("\(WallTime.epoch)" == "1970-01-01T00:00:00Z")
    }
}
