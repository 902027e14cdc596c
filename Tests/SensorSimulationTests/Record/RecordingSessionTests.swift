@testable import SensorConfig
@testable import SensorCore
@testable import SensorRuntime
@testable import SensorSimulation
import SensorTestKit
import Synchronization
import Testing

/// Recording real sources on their poll threads, in a time the test moves. A run that does
/// not end is a failure after a guard time, not a hang of the test run. The clock moves on
/// only once the cycles so far are recorded (`progress.samples`), not once the reader was
/// polled: a cycle polled but not yet committed when the clock moved was stamped with the
/// next tick's time (seen under load: a recording without its first sample).
struct RecordingSessionTests {
    static let zone = SensorInfo(id: "thermal:thermal_zone0", quantity: .temperature)
    static let rh = SensorInfo(id: "hwmon:sht3x/humidity1", quantity: .humidity)

    /// A session over a thermal source (every second) and an hwmon one, read by the readers given.
    static func session(
        thermal: any SensorReader, hwmon: any SensorReader, hwmonInterval: Duration = .seconds(1), duration: Duration?,
        clock: VirtualClock
    ) -> RecordingSession<VirtualClock> {
        RecordingSession(
            sources: [
                SourceConfiguration(kind: .thermal, interval: .seconds(1)),
                SourceConfiguration(kind: .hwmon, interval: hwmonInterval),
            ],
            interval: nil, duration: duration, clock: clock, makeReader: { $0.kind == .thermal ? thermal : hwmon })
    }

    /// What `run` returned, or nil (and an issue) when it did not end: a guard, not a timing.
    func ended(_ run: Task<Recorder, Never>) async -> Recorder? {
        let recorder = await run.value(within: .seconds(10))
        if recorder == nil { Issue.record("the recording did not end") }
        return recorder
    }

    func samples(_ recorder: Recorder, _ id: String) -> [TimedValue] {
        guard case .samples(let s)? = recorder.scenario(step: .seconds(1))?.sensors.first(where: { $0.id == id })?.feed
        else { return [] }
        return s
    }

    @Test func aDurationRunEndsOnceEverySourceHasPolledItsTickAtTheEnd() async {
        let clock = VirtualClock()
        let thermal = ScriptedReader(Self.zone, [47, nil, 48, 99])
        let hwmon = ScriptedReader(Self.rh, [40, 41, 99])
        let session = Self.session(
            thermal: thermal, hwmon: hwmon, hwmonInterval: .seconds(2), duration: .seconds(2), clock: clock)
        let run = Task { await session.run() }
        #expect(await session.samplesRecorded.until(2))
        clock.advance(by: .seconds(1))
        #expect(await session.samplesRecorded.until(3))
        clock.advance(by: .seconds(1))
        guard let recorder = await ended(run) else { return }
        #expect(session.step == .seconds(1))
        #expect(
            samples(recorder, "thermal:thermal_zone0") == [
                TimedValue(time: .zero, value: 47), TimedValue(time: .seconds(1), value: nil),
                TimedValue(time: .seconds(2), value: 48),
            ])
        #expect(
            samples(recorder, "hwmon:sht3x/humidity1") == [
                TimedValue(time: .zero, value: 40), TimedValue(time: .seconds(2), value: 41),
            ])
        #expect(session.progress == Recorder.Progress(sensors: 2, samples: 5, elapsed: .seconds(2)))
    }

    @Test func theIntervalGivenReplacesEverySourcesOwn() async {
        let clock = VirtualClock()
        let thermal = ScriptedReader(Self.zone, [1, 2, 3, 4, 5])
        let session = RecordingSession(
            sources: [SourceConfiguration(kind: .thermal, interval: .seconds(10))],
            interval: .milliseconds(500), duration: .seconds(1), clock: clock, makeReader: { _ in thermal })
        let run = Task { await session.run() }
        #expect(await session.samplesRecorded.until(1))
        clock.advance(by: .milliseconds(500))
        #expect(await session.samplesRecorded.until(2))
        clock.advance(by: .milliseconds(500))
        guard let recorder = await ended(run) else { return }
        #expect(session.step == .milliseconds(500))
        #expect(samples(recorder, "thermal:thermal_zone0").map(\.value) == [1, 2, 3])
    }

    @Test func aHangingSourceHoldsADurationRunUpOnlyForItsGrace() async {
        let clock = VirtualClock()
        let stuck = HangingReader()
        let thermal = ScriptedReader(Self.rh, [40, 41, 42])
        let session = Self.session(thermal: stuck, hwmon: thermal, duration: .seconds(1), clock: clock)
        let run = Task { await session.run() }
        #expect(await stuck.started.until(1))
        #expect(await session.samplesRecorded.until(1))
        clock.advance(by: .seconds(1))
        // Its tick at 1 s taken (the poll's cycle reaches the recorder through the model,
        // after the poll returns), before the grace runs out.
        #expect(await session.samplesRecorded.until(2))
        clock.advance(by: RecordingSession<VirtualClock>.grace)
        guard let recorder = await ended(run) else { return }
        stuck.releaseOne()
        #expect(samples(recorder, "hwmon:sht3x/humidity1").map(\.value) == [40, 41])
        #expect(samples(recorder, "thermal:thermal_zone0") == [])
    }

    @Test func stopEndsAnOpenEndedRunKeepingWhatWasRead() async {
        let clock = VirtualClock()
        let thermal = ScriptedReader(Self.zone, [47, 48, 49])
        let session = RecordingSession(
            sources: [SourceConfiguration(kind: .thermal, interval: .seconds(1))],
            interval: nil, duration: nil, clock: clock, makeReader: { _ in thermal })
        let run = Task { await session.run() }
        #expect(await session.samplesRecorded.until(1))
        clock.advance(by: .seconds(1))
        #expect(await session.samplesRecorded.until(2))
        session.stop()
        guard let recorder = await ended(run) else { return }
        #expect(samples(recorder, "thermal:thermal_zone0").map(\.value) == [47, 48])
    }
}

extension RecordingSessionTests {
    @Test func aStopBeforeTheFirstPollStillKeepsEverySourcesFirstPoll() async {
        let clock = VirtualClock()
        let thermal = ScriptedReader(Self.zone, [47, 48])
        let hwmon = ScriptedReader(Self.rh, [40, 41])
        let session = Self.session(thermal: thermal, hwmon: hwmon, duration: .seconds(60), clock: clock)
        session.stop()
        guard let recorder = await ended(Task { await session.run() }) else { return }
        #expect(recorder.progress == Recorder.Progress(sensors: 2, samples: 2, elapsed: .zero))
    }

    @Test func aStopWaitsForAHangingSourcesFirstPollOnlyForTheGrace() async {
        let clock = VirtualClock()
        let stuck = HangingReader()
        let hwmon = ScriptedReader(Self.rh, [40, 41])
        let session = Self.session(thermal: stuck, hwmon: hwmon, duration: nil, clock: clock)
        let run = Task { await session.run() }
        #expect(await stuck.started.until(1))
        #expect(await session.samplesRecorded.until(1))
        session.stop()
        // The hwmon poller sleeping to its next tick, and the stop waiting out its grace.
        #expect(await clock.untilSleepers(2))
        clock.advance(by: RecordingSession<VirtualClock>.grace)
        guard let recorder = await ended(run) else { return }
        stuck.releaseOne()
        // The advance also lets hwmon poll its tick at 1 s, which may or may not make it in.
        #expect(recorder.sensorCount == 1)
        #expect(samples(recorder, "hwmon:sht3x/humidity1").first == TimedValue(time: .zero, value: 40))
    }
}

extension RecordingSessionTests {
    /// A source whose second sensor turns up after the first discovery.
    final class GrowingReader: SensorReader {
        let source = "hwmon"
        private let discoveries = Mutex(0)
        private let listed = Mutex<[SensorInfo]>([])

        func discover() -> [SensorInfo] {
            let n = discoveries.withLock { n -> Int in
                n += 1
                return n
            }
            let sensors = n == 1 ? [RecordingSessionTests.rh] : [RecordingSessionTests.rh, RecordingSessionTests.zone]
            listed.withLock { $0 = sensors }
            return sensors
        }

        func isolateBlockedRead(now: Timestamp) -> Bool { false }

        var leftOut: [String] { [] }

        func poll(at time: Timestamp) -> [SensorValues] {
            let count = listed.withLock { $0.count }
            return [SensorValues(time: time, values: Array(repeating: time.seconds, count: count))]
        }
    }

    @Test func aSensorFoundByTheMinutelyRediscoveryStartsLater() async {
        let clock = VirtualClock()
        let reader = GrowingReader()
        let session = RecordingSession(
            sources: [SourceConfiguration(kind: .hwmon, interval: .seconds(30))],
            interval: nil, duration: .seconds(90), clock: clock, makeReader: { _ in reader })
        let run = Task { await session.run() }
        for samples in [1, 2, 4, 6] {
            #expect(await session.samplesRecorded.until(samples))
            clock.advance(by: .seconds(30))
        }
        guard let recorder = await ended(run) else { return }
        #expect(
            samples(recorder, "hwmon:sht3x/humidity1").map(\.time) == [0, 30, 60, 90].map { Timestamp.seconds($0) })
        #expect(samples(recorder, "thermal:thermal_zone0").map(\.time) == [60, 90].map { Timestamp.seconds($0) })
    }
}
