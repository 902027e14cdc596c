import Observation
@testable import SensorCore
@testable import SensorDaemon
@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// The three Observation pitfalls of SPEC §5 / the core issue, each shown on the naive loop
/// and then on `TrackingLoop`. Every wait for a task to end is bounded: a loop that ignores
/// cancellation fails its test instead of hanging the run.
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct TrackingLoopTests {
    /// How long a task that should end may take before its test fails (a guard, not a timing).
    static let guardLimit = Duration.seconds(10)

    static let cpu = SensorInfo(id: "sim:cpu", quantity: .temperature)
    static let room = SensorInfo(id: "sim:room", quantity: .humidity)

    static let lists = [
        cpu.id: SensorList(source: "cpu", sensors: [cpu]), room.id: SensorList(source: "room", sensors: [room]),
    ]

    static func cycle(_ info: SensorInfo, _ t: Double, _ v: Double) -> PollCycle {
        .reading(lists[info.id]!, at: t, [(info, v)])
    }

    @Test func naiveOnChangeReadsTheOldValueBecauseItRunsInWillSet() {
        let data = SensorData()
        data.commit(Self.cycle(Self.cpu, 0, 1))
        let seen = Mutex<Double?>(nil)
        withObservationTracking {
            _ = data.latest(of: Self.cpu.id)
        } onChange: {
            let old = DaemonActor.assumeIsolated { data.latest(of: Self.cpu.id)?.value }
            seen.withLock { $0 = old }
        }
        data.commit(Self.cycle(Self.cpu, 1, 2))
        #expect(seen.withLock { $0 } == 1)  // the naive read: the old value
        #expect(data.latest(of: Self.cpu.id)?.value == 2)
    }

    @Test func loopHandlerSeesTheNewValueNotTheOldOne() async {
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: [.temperature])
        var seen: [Double?] = []
        let task = Task { @DaemonActor in
            await loop.run { _ in seen.append(data.latest(of: Self.cpu.id)?.value) }
        }
        #expect(await loop.armed.until(1))
        data.commit(Self.cycle(Self.cpu, 0, 1))
        #expect(await loop.armed.until(2))
        data.commit(Self.cycle(Self.cpu, 1, 2))
        #expect(await loop.armed.until(3))
        task.cancel()
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
        #expect(seen == [1, 2])
    }

    @Test func naiveLoopMissesSamplesWhenWakeUpsCoalesce() async {
        let data = SensorData()
        var seen: [Double] = []
        let armed = EventCount()
        let task = Task { @DaemonActor in
            for _ in 0..<2 {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    withObservationTracking {
                        _ = data.latest(of: Self.cpu.id)
                    } onChange: {
                        c.resume()
                    }
                    armed.increment()
                }
                if let v = data.latest(of: Self.cpu.id)?.value { seen.append(v) }
            }
        }
        #expect(await armed.until(1))
        // Three commits before the observer runs: one wake-up.
        data.commit(Self.cycle(Self.cpu, 0, 1))
        data.commit(Self.cycle(Self.cpu, 1, 2))
        data.commit(Self.cycle(Self.cpu, 2, 3))
        #expect(await armed.until(2))
        data.commit(Self.cycle(Self.cpu, 3, 4))
        #expect(await task.value(within: Self.guardLimit) != nil)
        #expect(seen == [3, 4])  // 1 and 2 were never seen
    }

    @Test func loopEvaluatesEverySampleOnceInOrderWhenWakeUpsCoalesce() async {
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: [.temperature])
        var seen: [Double] = []
        let task = Task { @DaemonActor in
            await loop.run { cycle in seen += cycle.samples.compactMap(\.value) }
        }
        #expect(await loop.armed.until(1))
        for i in 1...3 { data.commit(Self.cycle(Self.cpu, Double(i), Double(i))) }
        #expect(await loop.armed.until(2))
        for i in 4...100 { data.commit(Self.cycle(Self.cpu, Double(i), Double(i))) }
        #expect(await loop.armed.until(3))
        task.cancel()
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
        #expect(seen == (1...100).map(Double.init))
    }

    @Test func naiveWaitIgnoresCancellationUntilTheNextChange() async {
        let data = SensorData()
        let finished = Mutex(false)
        let armed = EventCount()
        let task = Task { @DaemonActor in
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = data.latest(of: Self.cpu.id)
                } onChange: {
                    c.resume()
                }
                armed.increment()
            }
            finished.withLock { $0 = true }
        }
        #expect(await armed.until(1))
        task.cancel()
        await daemonActorBarrier()
        #expect(finished.withLock { $0 } == false)  // still waiting after cancellation
        data.commit(Self.cycle(Self.cpu, 0, 1))  // only a change releases it
        #expect(await task.value(within: Self.guardLimit) != nil)
    }

    @Test func cancellingTheLoopEndsItsWait() async {
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: [.temperature])
        let task = Task { @DaemonActor in await loop.run { _ in } }
        #expect(await loop.armed.until(1))
        task.cancel()
        // Ends without any commit.
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
    }

    @Test func cancellingBeforeTheLoopWaitsStillEndsIt() async {
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: [.temperature])
        let task = Task { @DaemonActor in await loop.run { _ in } }
        task.cancel()
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
    }

    @Test func humidityObserverIsNotWokenByTemperatureCommits() async {
        let data = SensorData()
        let loop = TrackingLoop(data: data, quantities: [.humidity])
        var wakeUps = 0
        var seen: [SensorID] = []
        let task = Task { @DaemonActor in
            await loop.run({ cycle in seen += cycle.samples.map(\.sensor) }, iteration: { wakeUps += 1 })
        }
        #expect(await loop.armed.until(1))
        let before = wakeUps
        for i in 0..<10 { data.commit(Self.cycle(Self.cpu, Double(i), 20)) }
        await daemonActorBarrier()
        #expect(wakeUps == before)
        data.commit(Self.cycle(Self.room, 10, 40))
        #expect(await loop.armed.until(2))
        #expect(wakeUps == before + 1)
        task.cancel()
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
        #expect(seen == [Self.room.id])
    }

    @Test func aMixedCycleReachesEachQuantityItCarries() {
        let data = SensorData()
        let list = SensorList(source: "sim", sensors: [Self.cpu, Self.room])
        data.commit(.reading(list, at: 1, [(Self.cpu, 50), (Self.room, nil)]))
        #expect(data.latest(of: Self.cpu.id)?.value == 50)
        #expect(data.latest(of: Self.room.id)?.fault == "EIO")
        #expect(data.revision(of: .temperature) == 1 && data.revision(of: .humidity) == 1)
        #expect(data.revision(of: .pressure) == 0)
    }

    /// A poll's cycles committed together are announced once, before the first is stored:
    /// a naive `onChange` reads what was there before any of them; the loop still gets
    /// every one, in order.
    @Test func aPollsCyclesAreAnnouncedOnceBeforeTheFirstAndAllReachTheLoop() async {
        let data = SensorData()
        let list = SensorList(source: "sim", sensors: [Self.cpu])
        data.commit(.reading(list, at: 0, [(Self.cpu, 1)]))
        let seen = Mutex<[Double?]>([])
        withObservationTracking {
            _ = data.revision(of: .temperature)
        } onChange: {
            let old = DaemonActor.assumeIsolated { data.latest(of: Self.cpu.id)?.value }
            seen.withLock { $0.append(old) }
        }
        data.commit((1...3).map { PollCycle.reading(list, at: Double($0), [(Self.cpu, Double($0 + 1))]) })
        #expect(seen.withLock { $0 } == [1])
        #expect(data.revision(of: .temperature) == 2)
        #expect(data.latest(of: Self.cpu.id)?.value == 4)

        let loop = TrackingLoop(data: data, quantities: [.temperature])
        var handed: [Double] = []
        let task = Task { @DaemonActor in
            await loop.run { cycle in handed += cycle.samples.compactMap(\.value) }
        }
        #expect(await loop.armed.until(1))
        data.commit((5...7).map { PollCycle.reading(list, at: Double($0), [(Self.cpu, Double($0))]) })
        #expect(await loop.armed.until(2))
        task.cancel()
        #expect(await task.value(within: Self.guardLimit) != nil, "the loop did not end when cancelled")
        #expect(handed == [5, 6, 7])
    }
}
