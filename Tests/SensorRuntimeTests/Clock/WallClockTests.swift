import SensorRuntime
import Testing

/// One time of day, read in one place, in the two units its users keep.
@Suite struct WallClockTests {
    @Test func theSystemClockReadsTheTimeOfDayNotABootRelativeClock() {
        let first = SystemWallClock().now
        let second = SystemWallClock().now
        #expect(first <= second)
        #expect(second.seconds - first.seconds < 60)
        // After 2026-01-01: the real time of day.
        #expect(first.seconds > 1_767_225_600)
    }

    @Test func aManualClockMovesOnlyWhenSetOrAdvanced() {
        let clock = ManualWallClock(WallTime(microseconds: 1_764_626_466_000_000))
        #expect(clock.now == WallTime(microseconds: 1_764_626_466_000_000))
        clock.advance(by: .milliseconds(250))
        #expect(clock.now.microseconds == 1_764_626_466_250_000)
        clock.set(.epoch)
        #expect(clock.now == .epoch)
    }

    @Test func oneFormatterWritesTheStatusFilesMillisecondsAndTheNotifiersMicroseconds() {
        #expect(RFC3339.format(1_764_626_466.25) == "2025-12-01T22:01:06.250Z")
        #expect(RFC3339.format(microseconds: 1_764_626_466_250_000) == "2025-12-01T22:01:06.250000Z")
        #expect(RFC3339.format(microseconds: 1_764_626_466_000_000) == "2025-12-01T22:01:06Z")
        // `history --json` keeps six digits even when they are all zero.
        #expect(
            RFC3339.format(microseconds: 1_764_626_466_000_000, wholeFraction: true) == "2025-12-01T22:01:06.000000Z")
        #expect(
            RFC3339.format(microseconds: 1_764_626_466_000_007, wholeFraction: true) == "2025-12-01T22:01:06.000007Z")
        #expect(RFC3339.format(-0.5) == "1969-12-31T23:59:59.500Z")
    }
}
