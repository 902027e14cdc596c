@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Testing

/// The timeline of a recording (SPEC §15), on cycles made up by hand.
struct RecorderTests {
    static let zone = SensorInfo(id: "thermal:thermal_zone0", label: "x86_pkg_temp", quantity: .temperature)
    static let rh = SensorInfo(id: "hwmon:sht3x/humidity1", quantity: .humidity)
    static let late = SensorInfo(id: "hwmon:sht3x/temp1", quantity: .temperature)

    private func t(_ seconds: Double) -> Timestamp { .seconds(seconds) }

    private func cycle(_ source: String, _ time: Double, _ sensors: [SensorInfo], _ values: [Double?]) -> PollCycle {
        var readings = SensorValues(time: .seconds(time), capacity: values.count)
        for value in values {
            if let value { readings.append(value) } else { readings.appendFault("EIO") }
        }
        return PollCycle(list: SensorList(source: source, sensors: sensors), readings: readings)
    }

    private func samples(_ scenario: Scenario?, _ id: String) -> [TimedValue] {
        guard case .samples(let s)? = scenario?.sensors.first(where: { $0.id == id })?.feed else { return [] }
        return s
    }

    @Test func timesCountFromEachSourcesFirstPollAndFailedReadsAreNull() {
        var recorder = Recorder()
        // Run time 100 s when recording starts; the second source's thread started 40 µs later.
        recorder.add(cycle("thermal#1", 100, [Self.zone], [47]))
        recorder.add(cycle("hwmon#2", 100.00004, [Self.rh], [40]))
        recorder.add(cycle("thermal#1", 101, [Self.zone], [nil]))
        recorder.add(cycle("hwmon#2", 102.00004, [Self.rh], [41.5]))
        recorder.add(cycle("thermal#1", 102, [Self.zone], [48.25]))
        let scenario = recorder.scenario(step: .seconds(1))
        #expect(
            samples(scenario, "thermal:thermal_zone0") == [
                TimedValue(time: t(0), value: 47), TimedValue(time: t(1), value: nil),
                TimedValue(time: t(2), value: 48.25),
            ])
        #expect(
            samples(scenario, "hwmon:sht3x/humidity1") == [
                TimedValue(time: t(0), value: 40), TimedValue(time: t(2), value: 41.5),
            ])
        #expect(recorder.progress == Recorder.Progress(sensors: 2, samples: 5, elapsed: .seconds(2)))
        #expect(recorder.polls == 5)
    }

    @Test func scenarioKeepsIdsLabelsQuantitiesInIdOrderWithStepDurationAndNoLoop() {
        var recorder = Recorder()
        recorder.add(cycle("thermal#1", 5, [Self.zone], [47]))
        recorder.add(cycle("hwmon#2", 5, [Self.rh], [40]))
        recorder.add(cycle("thermal#1", 5.25, [Self.zone], [47.5]))
        recorder.add(cycle("hwmon#2", 15, [Self.rh], [39]))
        let scenario = recorder.scenario(step: .milliseconds(250))
        #expect(scenario?.sensors.map(\.info) == [Self.rh, Self.zone])
        #expect(scenario?.step == .milliseconds(250))
        #expect(scenario?.duration == .seconds(10))
        #expect(scenario?.loop == false)
    }

    @Test func aSensorFoundLaterStartsLaterAndOneThatGoesAwayStops() {
        var recorder = Recorder()
        recorder.add(cycle("hwmon#1", 0, [Self.rh], [40]))
        recorder.add(cycle("hwmon#1", 60, [Self.rh, Self.late], [41, 22]))
        recorder.add(cycle("hwmon#1", 61, [Self.late], [23]))
        let scenario = recorder.scenario(step: .seconds(1))
        #expect(
            samples(scenario, "hwmon:sht3x/temp1") == [
                TimedValue(time: t(60), value: 22), TimedValue(time: t(61), value: 23),
            ])
        #expect(
            samples(scenario, "hwmon:sht3x/humidity1") == [
                TimedValue(time: t(0), value: 40), TimedValue(time: t(60), value: 41),
            ])
        #expect(scenario?.duration == .seconds(61))
    }

    @Test func nothingReadIsNoScenarioAndPollsWithoutSamplesCountOnlyAsPolls() {
        var recorder = Recorder()
        #expect(recorder.scenario(step: .seconds(1)) == nil)
        recorder.add(cycle("iio#1", 3, [], []))
        #expect(recorder.scenario(step: .seconds(1)) == nil)
        #expect(recorder.polls == 1)
        // The empty poll fixed the origin: the first sample comes 2 s after the first poll.
        recorder.add(cycle("iio#1", 5, [Self.zone], [30]))
        #expect(
            samples(recorder.scenario(step: .seconds(1)), "thermal:thermal_zone0") == [
                TimedValue(time: t(2), value: 30)
            ])
    }

    @Test func timesStrictlyIncreaseAndAnIDBelongsToTheFirstSourceThatReportsIt() {
        var recorder = Recorder()
        recorder.add(cycle("thermal#1", 0, [Self.zone], [47]))
        recorder.add(cycle("thermal#2", 0, [Self.zone], [99]))
        recorder.add(cycle("thermal#1", 1, [Self.zone], [48]))
        recorder.add(cycle("thermal#2", 1, [Self.zone], [99]))
        recorder.add(cycle("thermal#1", 1, [Self.zone], [49]))
        #expect(
            samples(recorder.scenario(step: .seconds(1)), "thermal:thermal_zone0") == [
                TimedValue(time: t(0), value: 47), TimedValue(time: t(1), value: 48),
            ])
    }

    @Test func aLimitKeepsSamplesUpToAndIncludingIt() {
        var recorder = Recorder(limit: .seconds(2))
        for time in 0...3 {
            let reached = recorder.add(cycle("thermal#1", 10 + Double(time), [Self.zone], [Double(time)]))
            #expect(reached == .seconds(time))
        }
        let scenario = recorder.scenario(step: .seconds(1))
        #expect(samples(scenario, "thermal:thermal_zone0").map(\.time) == [t(0), t(1), t(2)])
        #expect(scenario?.duration == .seconds(2))
    }

    @Test func aCycleWithAFailedReadIsRecordedWithTheFault() {
        var recorder = Recorder()
        recorder.add(cycle("hwmon#1", 7, [Self.rh, Self.late], [40, nil]))
        let scenario = recorder.scenario(step: .seconds(1))
        #expect(samples(scenario, "hwmon:sht3x/humidity1") == [TimedValue(time: .zero, value: 40)])
        #expect(samples(scenario, "hwmon:sht3x/temp1") == [TimedValue(time: .zero, value: nil)])
    }

    /// SPEC §23 item 8: a BMC's discrete sensor records as a `state` sensor with its alarms,
    /// and the scenario file carries them, so `simulate` and `test` replay them.
    @Test func alarmsSeenWithSamplesAreRecordedAndWrittenToTheScenario() throws {
        let psu = SensorInfo(id: "ipmi:bmc-r1-01/PSU1_Status", label: "PSU1 Status", quantity: .state)
        var recorder = Recorder()
        for (time, bits) in [(0.0, 1.0), (1.0, 3.0), (2.0, 1.0)] {
            var readings = SensorValues(time: .seconds(time), capacity: 1)
            readings.append(bits, alarms: bits == 3 ? [HardwareAlarms(name: "alarm")!] : [])
            recorder.add(PollCycle(list: SensorList(source: "ipmi#1", sensors: [psu]), readings: readings))
        }
        let scenario = try #require(recorder.scenario(step: .seconds(1)))
        #expect(scenario.sensors.first?.alarms == [.seconds(1): HardwareAlarms(name: "alarm")!])
        #expect(scenario.sensors.first?.quantity == .state)
        let text = ScenarioWriter.json(scenario)
        #expect(text.contains("\"alarms\": [[1, \"alarm\"]]"))
        let back = try ScenarioLoader.load(contents: Array(text.utf8), path: "s.json5")
        #expect(back.sensors.first?.alarms == scenario.sensors.first?.alarms)
    }
}
