@testable import SensorRuntime
import SensorTestKit
import Synchronization
import Testing

/// Services that come and go while the set runs (notify's lanes): inserted ones start, a
/// removed one is cancelled and ends, and cancelling the set ends every one.
@DaemonActor
@Suite(.timeLimit(.minutes(1)))
struct ServiceSetTests {
    /// Runs until cancelled, saying so.
    static func waiter(_ name: String, _ log: LineLog) -> ClosureService {
        ClosureService {
            log.append("start \(name)")
            await untilCancelled()
            log.append("stop \(name)")
        }
    }

    @Test func insertedServicesRunARemovedOneStopsAndCancellingTheSetStopsTheRest() async {
        let log = LineLog()
        let set = ServiceSet<String>()
        set.insert("a", Self.waiter("a", log))
        let run = Task { @DaemonActor in await set.run() }
        set.insert("b", Self.waiter("b", log))
        #expect(await log.count.until(2))
        #expect(Set(log.all) == ["start a", "start b"])
        set.remove("a")
        #expect(await log.count.until(3))
        #expect(log.all.last == "stop a")
        #expect(set.keys == ["b"])
        run.cancel()
        await run.value
        #expect(log.all.filter { $0.hasPrefix("stop") }.sorted() == ["stop a", "stop b"])
    }
}
