import Dispatch
@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import Synchronization
import Testing

struct SimulatedReaderTests {
    /// `a`: explicit samples off the step grid; `b`: generated every second through 3 s.
    private func scenario(loop: Bool = true) -> Scenario {
        Scenario(
            duration: .seconds(3), step: .seconds(1), loop: loop,
            sensors: [
                ScenarioSensor(
                    id: "b", quantity: .temperature,
                    feed: .generated(
                        start: 0, segments: [.ramp(to: 3, over: .seconds(3))], noise: 0)),
                ScenarioSensor(
                    id: "a", quantity: .humidity, label: "A",
                    feed: .samples([
                        TimedValue(time: .zero, value: 10), TimedValue(time: .seconds(0.5), value: nil),
                        TimedValue(time: .seconds(2.5), value: 12),
                    ])),
            ])
    }

    private func names(_ samples: [Sample]) -> [String] {
        samples.map { "\($0.sensor.rawValue.dropFirst(4))@\($0.time.seconds)" }
    }

    /// Played ahead on a thread (`simulate`), a scenario gives every poll what playing it
    /// inline gives: polls between stretches, on their edges, several stretches at once,
    /// none at all, past the end.
    /// 500 explicit samples 1.37 s apart, off the step grid, every ninth a failed read.
    static let explicit: [TimedValue] = (0..<500).map { (i: Int) -> TimedValue in
        let value: Double? = i % 9 == 0 ? nil : Double(i)
        return TimedValue(time: Timestamp(nanoseconds: Int64(i) * 1_370_000_000 + 7_000_000), value: value)
    }

    @Test func aScenarioPlayedAheadGivesEveryPollWhatPlayingItInlineGives() {
        let scenario = Scenario(
            duration: .seconds(700), step: .milliseconds(100), seed: 3, loop: false,
            sensors: [
                ScenarioSensor(
                    id: "g", quantity: .temperature,
                    feed: .generated(
                        start: 20, segments: [.ramp(to: 40, over: .seconds(300)), .dropout(.seconds(2))], noise: 0.5)),
                ScenarioSensor(id: "e", quantity: .humidity, feed: .samples(Self.explicit)),
            ])
        let inline = SimulatedReader(scenario: scenario, loop: false)
        let ahead = SimulatedReader(scenario: scenario, loop: false, ahead: true)
        // Stretches here are 102.4 s (1024 steps): polls inside, on and across them.
        let times: [Double] = [0, 0, 0.05, 3, 102.4, 102.4, 102.5, 250, 250, 409.6, 640, 699.95, 700, 700, 800]
        for t in times {
            let time = Timestamp(nanoseconds: Int64(t * 1e9))
            #expect(ahead.poll(at: time) == inline.poll(at: time), "poll at \(t) s")
        }
    }

    @Test func discoverListsTheScenarioSensorsInIdOrder() {
        let reader = SimulatedReader(scenario: scenario(), loop: false)
        #expect(reader.source == "sim")
        #expect(
            reader.discover() == [
                SensorInfo(id: "sim:a", label: "A", quantity: .humidity),
                SensorInfo(id: "sim:b", quantity: .temperature),
            ])
    }

    /// Instants in time order; within one instant the readings follow the sensor list (id
    /// order), like every source's.
    @Test func eachPollReturnsWhatIsDueSinceTheLastOneInTimeOrder() {
        let reader = SimulatedReader(scenario: scenario(), loop: false)
        #expect(names(reader.samples(at: .zero)) == ["a@0.0", "b@0.0"])
        #expect(reader.poll(at: .zero).isEmpty)
        #expect(names(reader.samples(at: .seconds(0.9))) == ["a@0.5"])
        #expect(reader.samples(at: .seconds(0.9)).isEmpty)
        #expect(names(reader.samples(at: .seconds(3))) == ["b@1.0", "b@2.0", "a@2.5", "b@3.0"])
        #expect(reader.samples(at: .seconds(1000)).isEmpty)
    }

    @Test func samplesCarryValuesAndFaults() {
        let reader = SimulatedReader(scenario: scenario(), loop: false)
        #expect(
            reader.samples(at: .seconds(0.5)) == [
                Sample(sensor: "sim:a", time: .zero, value: 10),
                Sample(sensor: "sim:b", time: .zero, value: 0),
                Sample(sensor: "sim:a", time: .seconds(0.5), fault: "simulated failed read"),
            ])
    }

    @Test func loopingRepeatsWithPeriodDurationAndDropsTheSampleAtDuration() {
        let reader = SimulatedReader(scenario: scenario(), loop: true)
        #expect(
            names(reader.samples(at: .seconds(7))) == [
                "a@0.0", "b@0.0", "a@0.5", "b@1.0", "b@2.0", "a@2.5",
                "a@3.0", "b@3.0", "a@3.5", "b@4.0", "b@5.0", "a@5.5",
                "a@6.0", "b@6.0", "a@6.5", "b@7.0",
            ])
        #expect(names(reader.samples(at: .seconds(7))) == [])
        let next = reader.samples(at: .seconds(8.5))
        #expect(names(next) == ["b@8.0", "a@8.5"])
        #expect(next.map(\.value) == [2, 12])
    }

    @Test func scenarioThatSaysLoopFalsePlaysOnceEvenWhenTheReaderLoops() {
        let reader = SimulatedReader(scenario: scenario(loop: false), loop: true)
        #expect(reader.samples(at: .seconds(100)).count == 7)
        #expect(reader.samples(at: .seconds(200)).isEmpty)
    }

    @Test func scenarioWithoutSamplesNeverSpinsWhenLooping() {
        let empty = Scenario(
            duration: .seconds(1), step: .seconds(1),
            sensors: [
                ScenarioSensor(id: "a", quantity: .humidity, feed: .samples([]))
            ])
        #expect(SimulatedReader(scenario: empty, loop: true).samples(at: .seconds(1_000_000)).isEmpty)
    }

    @Test func concurrentPollsReturnEverySampleExactlyOnce() {
        let long = Scenario(
            duration: .seconds(1000), step: .milliseconds(10), loop: false,
            sensors: [
                ScenarioSensor(id: "a", quantity: .pressure, feed: .generated(start: 1, segments: [], noise: 0)),
                ScenarioSensor(id: "b", quantity: .pressure, feed: .generated(start: 2, segments: [], noise: 0)),
            ])
        let reader = SimulatedReader(scenario: long, loop: false)
        let collected = Mutex<[Sample]>([])
        DispatchQueue.concurrentPerform(iterations: 201) { i in
            let batch = reader.samples(at: .seconds(Double(i * 5)))
            collected.withLock { $0 += batch }
        }
        let all = collected.withLock { $0 }
        #expect(all.count == 2 * 100_001)
        #expect(Set(all.map { "\($0.sensor)@\($0.time.nanoseconds)" }).count == all.count)
    }
}

extension SimulatedReader {
    /// One poll read back as samples: instants in time order, each in list order.
    fileprivate func samples(at time: Timestamp) -> [Sample] {
        poll(at: time).flatMap { $0.samples(of: discover()) }
    }
}
