@testable import SensorRuntime
import SensorTestKit
import Testing

/// The pieces every timed wait goes through: the alarms threads block on, and the tasks'
/// sleeps the boot clock builds on one alarm. Driven by a manual clock's alarm (virtual
/// time) or by nothing timed at all.
@Suite(.timeLimit(.minutes(1)))
struct RunClockTests {
    /// The boot clock's task sleeps on a manual clock's alarm: each sleeper wakes when time
    /// reaches its own deadline, whatever order they went to sleep in.
    @Test func tasksSleepingOnOneAlarmWakeEachAtItsOwnDeadline() async throws {
        let clock = VirtualClock()
        let sleepers = try AlarmSleepers<VirtualClock>(now: { clock.now }, alarm: clock.makeAlarm())
        let late = Task { () -> Duration in
            try? await sleepers.sleep(until: clock.now.advanced(by: .seconds(2)))
            return clock.now.offset
        }
        let early = Task { () -> Duration in
            try? await sleepers.sleep(until: clock.now.advanced(by: .seconds(1)))
            return clock.now.offset
        }
        #expect(await sleepers.begun.until(2))
        clock.advance(by: .seconds(1))
        #expect(await early.value(within: .seconds(10)) == Duration.seconds(1))
        #expect(sleepers.count == 1)
        clock.advance(by: .seconds(1))
        #expect(await late.value(within: .seconds(10)) == Duration.seconds(2))
    }

    @Test func aCancelledSleepEndsAtOnceWithCancellationError() async throws {
        let clock = VirtualClock()
        let sleepers = try AlarmSleepers<VirtualClock>(now: { clock.now }, alarm: clock.makeAlarm())
        let sleeping = Task { () -> Bool in
            do { try await sleepers.sleep(until: clock.now.advanced(by: .seconds(60))) } catch {
                return error is CancellationError
            }
            return false
        }
        sleeping.cancel()
        #expect(await sleeping.value(within: .seconds(10)) == true)
    }

    /// A cancelled sleep takes its deadline off the alarm: the alarm is re-armed for the
    /// earliest sleep left, and disarmed when none is, so the thread behind it is not woken
    /// at a deadline nobody waits for.
    @Test func aCancelledSleepTakesItsDeadlineOffTheAlarm() async throws {
        let clock = VirtualClock()
        let sleepers = try AlarmSleepers<VirtualClock>(now: { clock.now }, alarm: clock.makeAlarm())
        let early = Task { try await sleepers.sleep(until: clock.now.advanced(by: .seconds(1))) }
        #expect(await sleepers.begun.until(1))
        let late = Task { try await sleepers.sleep(until: clock.now.advanced(by: .seconds(2))) }
        #expect(await sleepers.begun.until(2))
        #expect(clock.alarmDeadlines == [VirtualClock.Instant(offset: .seconds(1))])
        early.cancel()
        #expect(await sleepers.ended.until(1))
        #expect(sleepers.count == 1)
        #expect(clock.alarmDeadlines == [VirtualClock.Instant(offset: .seconds(2))])
        late.cancel()
        #expect(await sleepers.ended.until(2))
        #expect(sleepers.count == 0)
        #expect(clock.alarmDeadlines.isEmpty)
    }

    /// Stopping rings a poll thread's alarm: no later arming (the thread's next sleep) may
    /// undo it, or a stopped poller would sleep out its interval.
    @Test func aRungBootAlarmEndsEveryLaterWaitAtOnceAlsoAfterArming() {
        let alarm = BootClockAlarm()
        let start = BootClockAlarm.bootNanoseconds()
        alarm.ring()
        alarm.sleep(for: .seconds(3600))
        alarm.arm(after: .seconds(3600))
        alarm.wait()
        // Both waits asked for an hour; a rung alarm returns from them at once. The bound is
        // far from either side: a broken alarm would not return for an hour.
        let waited = Duration.nanoseconds(BootClockAlarm.bootNanoseconds() - start)
        #expect(waited < .seconds(60))
    }
}
