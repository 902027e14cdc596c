@testable import SensorConfig
@testable import SensorCore
@testable import SensorSimulation
import Testing
@testable import SensorRuntime
struct ScenarioSamplerTests {
    /// One generated sensor; returns `(seconds, value or nil)` of every sample.
    private func curve(
        start: Double = 10, _ segments: [Segment], duration: Duration, step: Duration = .seconds(1)
    ) -> [(Double, Double?)] {
        let scenario = Scenario(
            duration: duration, step: step,
            sensors: [
                ScenarioSensor(
                    id: "x", quantity: .temperature, feed: .generated(start: start, segments: segments, noise: 0))
            ])
        return ScenarioSampler.samples(of: scenario, sensorAt: 0).map { ($0.time.seconds, $0.value) }
    }

    private func expectCurve(_ actual: [(Double, Double?)], _ expected: [(Double, Double?)]) {
        #expect(actual.map(\.0) == expected.map(\.0))
        for ((t, a), (_, e)) in zip(actual, expected) {
            switch (a, e) {
            case (nil, nil): break
            case (let a?, let e?): #expect(abs(a - e) < 1e-9, "at \(t)s: \(a) is not \(e)")
            default: Issue.record("at \(t)s: \(String(describing: a)) is not \(String(describing: e))")
            }
        }
    }

    @Test func rampEndsExactlyOnItsTargetAndTheValueHoldsAfterTheLastSegment() {
        expectCurve(
            curve([.ramp(to: 20, over: .seconds(4))], duration: .seconds(6)),
            [
                (0, 10), (1, 12.5), (2, 15), (3, 17.5), (4, 20), (5, 20), (6, 20),
            ])
    }

    @Test func stepJumpsWithoutTakingTimeSoASampleAtItsTimeHasTheNewValue() {
        expectCurve(
            curve([.hold(.seconds(2)), .step(to: 50), .ramp(to: 60, over: .seconds(2))], duration: .seconds(5)),
            [
                (0, 10), (1, 10), (2, 50), (3, 55), (4, 60), (5, 60),
            ])
    }

    @Test func sineSwingsAroundTheCurrentValueAndReturnsToItAfterwards() {
        expectCurve(
            curve([.sine(amplitude: 5, period: .seconds(4), over: .seconds(6))], duration: .seconds(8)),
            [
                (0, 10), (1, 15), (2, 10), (3, 5), (4, 10), (5, 15), (6, 10), (7, 10), (8, 10),
            ])
    }

    @Test func dropoutFailsReadsOnItsHalfOpenIntervalThenTheValueResumes() {
        let scenario = Scenario(
            duration: .seconds(5), step: .seconds(1),
            sensors: [
                ScenarioSensor(
                    id: "x", quantity: .humidity,
                    feed: .generated(
                        start: 10, segments: [.ramp(to: 20, over: .seconds(2)), .dropout(.seconds(2))], noise: 0))
            ])
        let samples = ScenarioSampler.samples(of: scenario, sensorAt: 0)
        #expect(samples.map(\.value) == [10, 15, nil, nil, 20, 20])
        #expect(samples.map(\.fault) == [nil, nil, "simulated dropout", "simulated dropout", nil, nil])
        #expect(samples.allSatisfy { $0.sensor == "sim:x" })
    }

    @Test(arguments: [
        (Duration.milliseconds(2500), Duration.seconds(1), [0.0, 1, 2]),
        (.seconds(1), .milliseconds(250), [0.0, 0.25, 0.5, 0.75, 1]),
        (.milliseconds(300), .milliseconds(100), [0.0, 0.1, 0.2, 0.3]),
    ])
    func generatedSamplesFallOnEveryStepFromZeroThroughDuration(duration: Duration, step: Duration, seconds: [Double]) {
        #expect(curve([], duration: duration, step: step).map(\.0) == seconds)
    }

    @Test func explicitSamplesKeepTheirTimesAndNullIsAFailedRead() {
        let scenario = Scenario(
            duration: .seconds(3), step: .seconds(1),
            sensors: [
                ScenarioSensor(
                    id: "room", quantity: .humidity,
                    feed: .samples([
                        TimedValue(time: .zero, value: 40), TimedValue(time: .seconds(0.3), value: nil),
                        TimedValue(time: .seconds(2.7), value: 37),
                    ]))
            ])
        #expect(
            ScenarioSampler.samples(of: scenario, sensorAt: 0) == [
                Sample(sensor: "sim:room", time: .zero, value: 40),
                Sample(sensor: "sim:room", time: .seconds(0.3), fault: "simulated failed read"),
                Sample(sensor: "sim:room", time: .seconds(2.7), value: 37),
            ])
    }

    private func noisy(seed: UInt64, noise: Double = 0.5) -> Scenario {
        let feed = ScenarioSensor.Feed.generated(start: 20, segments: [.dropout(.seconds(3))], noise: noise)
        return Scenario(
            duration: .seconds(100), step: .seconds(1), seed: seed,
            sensors: [
                ScenarioSensor(id: "a", quantity: .temperature, feed: feed),
                ScenarioSensor(id: "b", quantity: .temperature, feed: feed),
            ])
    }

    @Test func noiseIsDeterministicBoundedAndIndependentPerSensor() {
        let first = ScenarioSampler.samples(of: noisy(seed: 42))
        #expect(first == ScenarioSampler.samples(of: noisy(seed: 42)))
        #expect(first != ScenarioSampler.samples(of: noisy(seed: 43)))
        let values = first.compactMap(\.value)
        #expect(values.count == 2 * 98)
        #expect(values.allSatisfy { abs($0 - 20) <= 0.5 })
        #expect(values.contains { $0 > 20.25 } && values.contains { $0 < 19.75 })
        let a = first.filter { $0.sensor == "sim:a" }.map(\.value)
        let b = first.filter { $0.sensor == "sim:b" }.map(\.value)
        #expect(a != b)
        #expect(a.prefix(3).allSatisfy { $0 == nil })
    }

    @Test func noiseStreamOfASeedIsFixedAcrossBuilds() {
        var generator = SplitMix64(seed: 0)
        // Reference values of SplitMix64 for seed 0.
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func mergedSamplesAreInTimeOrderWithSensorOrderAtEqualTimes() {
        let scenario = Scenario(
            duration: .seconds(2), step: .seconds(1),
            sensors: [
                ScenarioSensor(
                    id: "z", quantity: .pressure,
                    feed: .samples([
                        TimedValue(time: .seconds(0.5), value: 1), TimedValue(time: .seconds(1), value: 2),
                    ])),
                ScenarioSensor(id: "a", quantity: .pressure, feed: .generated(start: 7, segments: [], noise: 0)),
            ])
        #expect(
            ScenarioSampler.samples(of: scenario).map { "\($0.sensor)@\($0.time.seconds)" } == [
                "sim:a@0.0", "sim:z@0.5", "sim:z@1.0", "sim:a@1.0", "sim:a@2.0",
            ])
    }
}
